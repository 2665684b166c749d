//! Model weights: a minimal safetensors reader (F32, F16 and BF16 tensors, converted to
//! `f32`) giving named tensors with their shapes, in the checkpoint's own layout (PyTorch
//! `Linear` weights are `[out, in]`). Backends (CPU here, WebGPU later) take the tensors they
//! need from [`Weights`] and lay them out as they like.
//!
//! The safetensors format: an 8-byte little-endian header length `n`, then `n` bytes of JSON
//! mapping each tensor name to `{"dtype", "shape", "data_offsets": [begin, end]}` (offsets
//! relative to the byte after the header; a `__metadata__` entry holds free-form strings),
//! then the raw little-endian data.

use crate::EmbedError;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// A dense `f32` tensor, row-major.
#[derive(Debug, Clone, PartialEq)]
pub struct Tensor {
    /// Dimensions, outermost first.
    pub shape: Vec<usize>,
    /// `shape.iter().product()` values, row-major.
    pub data: Vec<f32>,
}

impl Tensor {
    /// A tensor from its shape and data (the lengths must agree).
    ///
    /// ```
    /// use memeboard_embed::weights::Tensor;
    /// let t = Tensor::new(vec![2, 3], vec![0.0; 6])?;
    /// assert_eq!(t.len(), 6);
    /// assert!(Tensor::new(vec![2, 3], vec![0.0; 5]).is_err());
    /// # Ok::<(), memeboard_embed::EmbedError>(())
    /// ```
    pub fn new(shape: Vec<usize>, data: Vec<f32>) -> Result<Self, EmbedError> {
        if shape.iter().product::<usize>() != data.len() {
            return Err(EmbedError::Weights(format!(
                "shape {shape:?} does not hold {} values",
                data.len()
            )));
        }
        Ok(Self { shape, data })
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Whether the tensor holds no values.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
}

/// Named tensors of a checkpoint. Names are as in the file, with a leading `bert.` removed
/// (`embeddings.word_embeddings.weight`, `encoder.layer.0.attention.self.query.weight`, …).
#[derive(Debug, Clone, Default)]
pub struct Weights {
    tensors: BTreeMap<String, Tensor>,
    skipped: Vec<String>,
}

#[derive(Deserialize)]
struct Entry {
    dtype: String,
    shape: Vec<usize>,
    data_offsets: [usize; 2],
}

fn bad(msg: impl Into<String>) -> EmbedError {
    EmbedError::Weights(msg.into())
}

/// IEEE 754 binary16 → binary32, exact for every value (normals, subnormals, ±0, ±∞, NaN
/// with its payload).
///
/// Worked example: `0x3C00` is sign 0, exponent 15 (bias 15 → 2⁰), mantissa 0 → 1.0;
/// `0x0001` is the smallest subnormal, 1 × 2⁻²⁴.
///
/// ```
/// use memeboard_embed::weights::f16_to_f32;
/// assert_eq!(f16_to_f32(0x3C00), 1.0);
/// assert_eq!(f16_to_f32(0xC000), -2.0);
/// assert_eq!(f16_to_f32(0x7BFF), 65504.0);
/// assert_eq!(f16_to_f32(0x0001), 2f32.powi(-24));
/// assert_eq!(f16_to_f32(0x7C00), f32::INFINITY);
/// assert!(f16_to_f32(0x7E00).is_nan());
/// ```
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = u32::from(h >> 15) << 31;
    let exponent = u32::from((h >> 10) & 0x1F);
    let mantissa = u32::from(h & 0x3FF);
    match exponent {
        0 => {
            // Zero or subnormal: mantissa × 2⁻²⁴, exactly representable in f32.
            let magnitude = mantissa as f32 * f32::from_bits(0x3380_0000);
            f32::from_bits(sign | magnitude.to_bits())
        }
        0x1F => f32::from_bits(sign | 0x7F80_0000 | (mantissa << 13)),
        // Rebias the exponent (15 → 127) and widen the mantissa (10 → 23 bits).
        _ => f32::from_bits(sign | ((exponent + 112) << 23) | (mantissa << 13)),
    }
}

/// bfloat16 → f32 (the upper half of an f32).
fn bf16_to_f32(h: u16) -> f32 {
    f32::from_bits(u32::from(h) << 16)
}

impl Weights {
    /// Parses a safetensors file. Floating-point tensors (F32, F16, BF16) are converted to
    /// `f32`; others (e.g. the I64 `position_ids` buffer) are skipped and listed by
    /// [`Weights::skipped`].
    ///
    /// ```
    /// use memeboard_embed::Weights;
    /// // One F16 tensor "bert.w" of shape [2]: the values 1.0 and -2.0.
    /// let header = br#"{"__metadata__":{"format":"pt"},"bert.w":{"dtype":"F16","shape":[2],"data_offsets":[0,4]}}"#;
    /// let mut file = (header.len() as u64).to_le_bytes().to_vec();
    /// file.extend_from_slice(header);
    /// file.extend_from_slice(&[0x00, 0x3C, 0x00, 0xC0]);
    /// let w = Weights::from_safetensors(&file)?;
    /// let t = w.get("w").unwrap();
    /// assert_eq!((t.shape.clone(), t.data.clone()), (vec![2], vec![1.0, -2.0]));
    /// # Ok::<(), memeboard_embed::EmbedError>(())
    /// ```
    pub fn from_safetensors(bytes: &[u8]) -> Result<Self, EmbedError> {
        let (len_bytes, rest) = bytes
            .split_first_chunk::<8>()
            .ok_or_else(|| bad("file shorter than its 8-byte header length"))?;
        let header_len = usize::try_from(u64::from_le_bytes(*len_bytes))
            .ok()
            .filter(|&n| n <= rest.len())
            .ok_or_else(|| bad("header length exceeds the file"))?;
        let (header, data) = rest.split_at(header_len);
        let header: BTreeMap<String, Value> =
            serde_json::from_slice(header).map_err(|e| bad(format!("header: {e}")))?;
        let mut weights = Self::default();
        for (name, value) in header {
            if name == "__metadata__" {
                continue;
            }
            let entry: Entry = serde_json::from_value(value)
                .map_err(|e| bad(format!("header entry {name}: {e}")))?;
            let [begin, end] = entry.data_offsets;
            let raw = data
                .get(begin..end)
                .ok_or_else(|| bad(format!("{name}: data offsets {begin}..{end} out of range")))?;
            let count = entry
                .shape
                .iter()
                .try_fold(1usize, |acc, &d| acc.checked_mul(d))
                .ok_or_else(|| bad(format!("{name}: shape overflows")))?;
            let width = match entry.dtype.as_str() {
                "F32" => 4,
                "F16" | "BF16" => 2,
                _ => {
                    weights.skipped.push(name);
                    continue;
                }
            };
            if count.checked_mul(width) != Some(raw.len()) {
                return Err(bad(format!(
                    "{name}: {} bytes do not hold shape {:?} of {}",
                    raw.len(),
                    entry.shape,
                    entry.dtype
                )));
            }
            let values: Vec<f32> = match width {
                4 => raw
                    .chunks_exact(4)
                    .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                    .collect(),
                _ => {
                    let convert = if entry.dtype == "F16" {
                        f16_to_f32
                    } else {
                        bf16_to_f32
                    };
                    raw.chunks_exact(2)
                        .map(|b| convert(u16::from_le_bytes([b[0], b[1]])))
                        .collect()
                }
            };
            let name = name.strip_prefix("bert.").unwrap_or(&name).to_owned();
            weights.tensors.insert(
                name,
                Tensor {
                    shape: entry.shape,
                    data: values,
                },
            );
        }
        Ok(weights)
    }

    /// Adds (or replaces) a tensor.
    pub fn insert(&mut self, name: impl Into<String>, tensor: Tensor) {
        self.tensors.insert(name.into(), tensor);
    }

    /// The tensor called `name`, if any.
    pub fn get(&self, name: &str) -> Option<&Tensor> {
        self.tensors.get(name)
    }

    /// Removes and returns the tensor called `name`, checking its shape.
    pub fn take(&mut self, name: &str, shape: &[usize]) -> Result<Tensor, EmbedError> {
        let tensor = self
            .tensors
            .remove(name)
            .ok_or_else(|| EmbedError::MissingTensor(name.to_owned()))?;
        if tensor.shape != shape {
            return Err(EmbedError::Shape {
                name: name.to_owned(),
                expected: shape.to_vec(),
                found: tensor.shape,
            });
        }
        Ok(tensor)
    }

    /// Names of the tensors held, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.tensors.keys().map(String::as_str)
    }

    /// Number of tensors held.
    pub fn len(&self) -> usize {
        self.tensors.len()
    }

    /// Whether no tensor is held.
    pub fn is_empty(&self) -> bool {
        self.tensors.is_empty()
    }

    /// Tensors of the file that were not loaded (non-float dtypes).
    pub fn skipped(&self) -> &[String] {
        &self.skipped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference binary16 decoding from the definition, in f64.
    fn reference(h: u16) -> f64 {
        let sign = if h >> 15 == 1 { -1.0 } else { 1.0 };
        let e = i32::from((h >> 10) & 0x1F);
        let m = f64::from(h & 0x3FF);
        match e {
            0 => sign * m * 2f64.powi(-24),
            31 if m == 0.0 => sign * f64::INFINITY,
            31 => f64::NAN,
            _ => sign * (1.0 + m / 1024.0) * 2f64.powi(e - 15),
        }
    }

    #[test]
    fn every_f16_value_converts_exactly() {
        for h in 0..=u16::MAX {
            let got = f16_to_f32(h);
            let want = reference(h);
            if want.is_nan() {
                assert!(got.is_nan(), "{h:#06x}");
            } else {
                assert_eq!(f64::from(got), want, "{h:#06x}");
                assert_eq!(got.is_sign_negative(), h >> 15 == 1, "{h:#06x}");
            }
        }
    }

    fn file(header: &str, data: &[u8]) -> Vec<u8> {
        let mut f = (header.len() as u64).to_le_bytes().to_vec();
        f.extend_from_slice(header.as_bytes());
        f.extend_from_slice(data);
        f
    }

    #[test]
    fn reads_and_validates() {
        let data: Vec<u8> = [1.5f32, -2.0, 0.25]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .chain([7u8; 8])
            .collect();
        let f = file(
            r#"{"a.b":{"dtype":"F32","shape":[3,1],"data_offsets":[0,12]},
                "ids":{"dtype":"I64","shape":[1],"data_offsets":[12,20]}}"#,
            &data,
        );
        let mut w = Weights::from_safetensors(&f).unwrap();
        assert_eq!(w.len(), 1);
        assert_eq!(w.skipped(), ["ids".to_owned()]);
        assert!(matches!(w.take("a.b", &[3]), Err(EmbedError::Shape { .. })));
        let mut w = Weights::from_safetensors(&f).unwrap();
        assert_eq!(w.take("a.b", &[3, 1]).unwrap().data, vec![1.5, -2.0, 0.25]);
        assert!(matches!(
            w.take("a.b", &[3, 1]),
            Err(EmbedError::MissingTensor(_))
        ));

        let wrong_size = file(
            r#"{"x":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}}"#,
            &data,
        );
        assert!(Weights::from_safetensors(&wrong_size).is_err());
        let out_of_range = file(
            r#"{"x":{"dtype":"F32","shape":[9],"data_offsets":[0,36]}}"#,
            &data,
        );
        assert!(Weights::from_safetensors(&out_of_range).is_err());
        assert!(Weights::from_safetensors(&[1, 2, 3]).is_err());
        // BF16: 0x3F80 = 1.0, 0xC040 = -3.0.
        let bf16 = file(
            r#"{"b":{"dtype":"BF16","shape":[2],"data_offsets":[0,4]}}"#,
            &[0x80, 0x3F, 0x40, 0xC0],
        );
        let w = Weights::from_safetensors(&bf16).unwrap();
        assert_eq!(w.get("b").unwrap().data, vec![1.0, -3.0]);
        assert!(Weights::from_safetensors(&u64::MAX.to_le_bytes()).is_err());
    }
}
