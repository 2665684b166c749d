// Dense layer with bias and a fused epilogue, for BERT's linear layers:
//
//     y[r][c] = epilogue(Σ_k x[r][k] · w[c][k] + bias[c])
//
// x is M×K (activations, row-major), w is N×K (the PyTorch `Linear` weight, [out, in],
// row-major, uploaded as is), bias has N values, y is M×N. EPILOGUE (a `const` the host
// prepends to this source, one pipeline per value) picks what follows the bias:
//   0  nothing                 (Q/K/V projection)
//   1  exact GELU, x·Φ(x)      (the feed-forward's first dense; erf.wgsl is prepended too)
//   2  + residual[r][c]        (attention output and feed-forward output: the skip
//                                connection, added before the following LayerNorm)
// The additions happen in the CPU path's order: ((Σ x·w) + bias) + residual.
//
// Tiling: registers, not workgroup memory. Each invocation computes a 4×4 tile of y (rows
// 4·gid.y…+3, columns 4·gid.x…+3) from 4 rows of x and 4 rows of w, read as vec4 along k
// (both are k-contiguous): per step 8 vec4 loads feed 16 four-term dot products (64
// multiply-adds). A 16×4 workgroup covers a 16×64 tile of y. Workgroup-memory tiling (a
// 32×64 tile staged through 16-wide k slices, two barriers per slice) was measured first:
// on SwiftShader, the adapter of headless CI, it was 25× slower (3.4 s against 0.14 s for
// a 4-token m3e-small sentence), since there every workgroup-memory access is a per-lane
// gather like a global one, and barriers switch coroutines; for the skinny matrices of one
// sentence (M = tokens, typically 10–60) the weights, read once per 4 rows, stream from
// the caches of a hardware GPU just as well.
//
// Rows past M are clamped for reading (valid memory) and never written; K and N must be
// multiples of 4 (the host checks). Dispatch: (ceil(N / 64), ceil(M / 16), 1).

struct Params {
    m: u32,  // rows of x and y (tokens)
    n: u32,  // outputs (rows of w)
    k: u32,  // inputs (columns of x and w)
    _pad: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> x: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> w: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> bias: array<vec4<f32>>;
// Bound to the bias when EPILOGUE != 2 (read-only, never read then).
@group(0) @binding(4) var<storage, read> residual: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> y: array<vec4<f32>>;

// Bias, epilogue and store of y[r][c0 … c0+3] (c0 a multiple of 4).
fn finish(r: u32, c0: u32, acc: vec4<f32>) {
    if (r >= p.m) {
        return;
    }
    let at = (r * p.n + c0) / 4u;
    var v = acc + bias[c0 / 4u];
    if (EPILOGUE == 1u) {
        v = vec4<f32>(gelu(v.x), gelu(v.y), gelu(v.z), gelu(v.w));
    } else if (EPILOGUE == 2u) {
        v += residual[at];
    }
    y[at] = v;
}

@compute @workgroup_size(16, 4, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let c0 = gid.x * 4u;
    let r0 = gid.y * 4u;
    if (c0 >= p.n || r0 >= p.m) {
        return;
    }
    let k4 = p.k / 4u;
    let last = p.m - 1u;
    let x0 = r0 * k4;
    let x1 = min(r0 + 1u, last) * k4;
    let x2 = min(r0 + 2u, last) * k4;
    let x3 = min(r0 + 3u, last) * k4;
    let w0 = c0 * k4;
    let w1 = w0 + k4;
    let w2 = w1 + k4;
    let w3 = w2 + k4;
    var a0 = vec4<f32>(0.0);
    var a1 = vec4<f32>(0.0);
    var a2 = vec4<f32>(0.0);
    var a3 = vec4<f32>(0.0);
    for (var k = 0u; k < k4; k++) {
        let c0k = w[w0 + k];
        let c1k = w[w1 + k];
        let c2k = w[w2 + k];
        let c3k = w[w3 + k];
        let r0k = x[x0 + k];
        let r1k = x[x1 + k];
        let r2k = x[x2 + k];
        let r3k = x[x3 + k];
        a0 += vec4<f32>(dot(r0k, c0k), dot(r0k, c1k), dot(r0k, c2k), dot(r0k, c3k));
        a1 += vec4<f32>(dot(r1k, c0k), dot(r1k, c1k), dot(r1k, c2k), dot(r1k, c3k));
        a2 += vec4<f32>(dot(r2k, c0k), dot(r2k, c1k), dot(r2k, c2k), dot(r2k, c3k));
        a3 += vec4<f32>(dot(r3k, c0k), dot(r3k, c1k), dot(r3k, c2k), dot(r3k, c3k));
    }
    finish(r0, c0, a0);
    finish(r0 + 1u, c0, a1);
    finish(r0 + 2u, c0, a2);
    finish(r0 + 3u, c0, a3);
}
