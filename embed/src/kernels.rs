//! WGSL sources of the WebGPU forward pass (the `gpu` module uses them), assembled from
//! `src/kernels/*.wgsl` plus the constants each pipeline needs. Kept free of `wgpu` (and
//! compiled on every target) so that native tests can check the assembly and the f32 erf
//! that `erf.wgsl` evaluates.
//!
//! | file | kernel | dispatch |
//! | --- | --- | --- |
//! | `matmul.wgsl` | `y = epilogue(x·Wᵀ + b)`, 4×4 register tiles (16×64 per workgroup), epilogue none / GELU / + residual | `(⌈N/64⌉, ⌈M/16⌉)` |
//! | `matmul_tiled.wgsl` | the same, 64×64 per workgroup through workgroup-memory k slices of 16, 4×4 register blocks (batches on hardware GPUs) | `(⌈N/64⌉, ⌈M/64⌉)` |
//! | `attention.wgsl` | scores `q·k/√d`, softmax, `Σ p·v`, per row and head, within the row's sentence | `(M, heads)` |
//! | `layernorm.wgsl` | LayerNorm of each row, in place (workgroup reductions) | `(M)` |
//! | `erf.wgsl` | `erf` and `gelu` functions (prepended to the matmul) | – |

#![cfg_attr(not(feature = "gpu"), allow(dead_code))]

use crate::tables::{ERF_PIECES, ERF_SMALL};

const MATMUL_WGSL: &str = include_str!("kernels/matmul.wgsl");
const MATMUL_TILED_WGSL: &str = include_str!("kernels/matmul_tiled.wgsl");
const LAYERNORM_WGSL: &str = include_str!("kernels/layernorm.wgsl");
const ATTENTION_WGSL: &str = include_str!("kernels/attention.wgsl");
const ERF_WGSL: &str = include_str!("kernels/erf.wgsl");

/// What the matmul does after adding the bias (the `EPILOGUE` constant of `matmul.wgsl`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Epilogue {
    /// Nothing (the Q/K/V projection).
    Bias = 0,
    /// Exact GELU (the feed-forward's first dense layer).
    Gelu = 1,
    /// Add the residual input (attention output and feed-forward output).
    Residual = 2,
}

impl Epilogue {
    /// All epilogues, indexed by their WGSL value.
    pub(crate) const ALL: [Self; 3] = [Self::Bias, Self::Gelu, Self::Residual];
}

/// Output tile of `matmul.wgsl`: rows × columns per workgroup (16 × 4 invocations, each a
/// 4 × 4 tile).
pub(crate) const MATMUL_TILE: (u32, u32) = (16, 64);
/// Output tile of `matmul_tiled.wgsl`: rows × columns per workgroup (16 × 16 invocations,
/// each a 4 × 4 block).
pub(crate) const TILED_TILE: (u32, u32) = (64, 64);
/// Invocations per workgroup of `matmul_tiled.wgsl`.
pub(crate) const TILED_INVOCATIONS: u32 = 256;
/// Workgroup memory of `matmul_tiled.wgsl`: two 16 × 64 f32 slices (x and w).
pub(crate) const TILED_WORKGROUP_BYTES: u32 = 2 * 16 * 64 * 4;
/// Storage buffers bound by the matmul (x, w, bias, residual, y).
pub(crate) const MATMUL_STORAGE_BUFFERS: u32 = 5;
/// Invocations per workgroup of every kernel (matmul 16 × 4, attention and LayerNorm 64).
pub(crate) const INVOCATIONS: u32 = 64;
/// The kernels read vectors as `vec4<f32>`: widths must be multiples of this.
pub(crate) const VECTOR_WIDTH: usize = 4;

/// f32 WGSL literals of `values`, comma-separated: the shortest decimal that rounds back to
/// the same f32, with the `f` suffix so WGSL parses it directly as f32.
fn wgsl_floats(values: impl IntoIterator<Item = f64>) -> String {
    values
        .into_iter()
        .map(|v| format!("{:e}f", v as f32))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `erf.wgsl` preceded by the coefficient tables of [`crate::math::erf`], rounded to f32.
fn erf_source() -> String {
    let width = ERF_PIECES[0].len();
    format!(
        "const ERF_SMALL = array<f32, {}>({});\nconst ERF_PIECES = array<f32, {}>({});\n{}",
        ERF_SMALL.len(),
        wgsl_floats(ERF_SMALL),
        ERF_PIECES.len() * width,
        wgsl_floats(ERF_PIECES.iter().flatten().copied()),
        ERF_WGSL
    )
}

/// The matmul pipeline's source for `epilogue` (with `erf.wgsl`, which the GELU uses).
pub(crate) fn matmul_source(epilogue: Epilogue) -> String {
    format!(
        "const EPILOGUE: u32 = {}u;\n{}\n{MATMUL_WGSL}",
        epilogue as u32,
        erf_source()
    )
}

/// The tiled matmul pipeline's source for `epilogue` (with `erf.wgsl`).
pub(crate) fn matmul_tiled_source(epilogue: Epilogue) -> String {
    format!(
        "const EPILOGUE: u32 = {}u;\n{}\n{MATMUL_TILED_WGSL}",
        epilogue as u32,
        erf_source()
    )
}

/// The attention pipeline's source for sequences of at most `max_tokens` tokens.
pub(crate) fn attention_source(max_tokens: u32) -> String {
    format!("const MAX_T: u32 = {max_tokens}u;\n{ATTENTION_WGSL}")
}

/// The LayerNorm pipeline's source.
pub(crate) fn layernorm_source() -> String {
    LAYERNORM_WGSL.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::ERF_STEP;

    /// `erf.wgsl`'s algorithm in Rust, step for step in f32 (for the tests: the GPU's GELU is as
    /// accurate as this).
    fn erf_f32(x: f32) -> f32 {
        let a = x.abs();
        let step = ERF_STEP as f32;
        let y = if a < step {
            let x2 = a * a;
            a * ERF_SMALL
                .iter()
                .rev()
                .fold(0.0f32, |acc, &c| acc * x2 + c as f32)
        } else if a >= 6.0 {
            1.0
        } else {
            let k = ((a / step) as usize).min(ERF_PIECES.len() - 1);
            let centre = (k as f32 + 0.5) * step;
            let t = (a - centre) * (2.0 / step);
            ERF_PIECES[k]
                .iter()
                .rev()
                .fold(0.0f32, |acc, &c| acc * t + c as f32)
        };
        if x < 0.0 {
            -y
        } else {
            y
        }
    }

    #[test]
    fn f32_erf_of_the_kernel_is_accurate() {
        let mut worst = 0.0f64;
        for i in -70_000..=70_000 {
            let x = i as f32 * 1e-4;
            let err = (f64::from(erf_f32(x)) - crate::math::erf(f64::from(x))).abs();
            worst = worst.max(err);
        }
        eprintln!("f32 erf of erf.wgsl: max abs error {worst:.2e} on [-7, 7]");
        // A few f32 ulps of values up to 1 (ulp(1) = 1.2e-7).
        assert!(worst < 2.5e-7, "max |erf_f32 - erf| = {worst:e}");
        let tiny = erf_f32(1e-20);
        assert!((f64::from(tiny) - 1.128_379_167e-20).abs() < 1e-27);
        assert_eq!(erf_f32(9.0), 1.0);
        assert_eq!(erf_f32(-9.0), -1.0);
    }

    #[test]
    fn sources_carry_their_constants() {
        let m = matmul_source(Epilogue::Residual);
        assert!(m.starts_with("const EPILOGUE: u32 = 2u;\nconst ERF_SMALL = array<f32, 13>("));
        assert!(m.contains("const ERF_PIECES = array<f32, 156>("));
        assert!(m.contains("fn gelu(x: f32)") && m.contains("fn main("));
        // Every coefficient survives as an f32 literal that parses back to itself.
        let small = m.split("array<f32, 13>(").nth(1).unwrap();
        let first: Vec<f32> = small
            .split(')')
            .next()
            .unwrap()
            .split(", ")
            .map(|s| s.trim_end_matches('f').parse().unwrap())
            .collect();
        assert_eq!(first.len(), 13);
        for (got, want) in first.iter().zip(ERF_SMALL) {
            assert_eq!(*got, want as f32);
        }
        let t = matmul_tiled_source(Epilogue::Gelu);
        assert!(t.starts_with("const EPILOGUE: u32 = 1u;\n") && t.contains("var<workgroup> xs"));
        assert!(attention_source(512).starts_with("const MAX_T: u32 = 512u;\n"));
        assert!(layernorm_source().contains("fn workgroup_sum"));
        assert_eq!(Epilogue::ALL.map(|e| e as u32), [0, 1, 2]);
    }
}
