// LayerNorm over each row of x, in place: x = (x − mean) / √(var + eps) · gamma + beta, with
// the biased variance (as PyTorch/ONNX). One workgroup of 64 invocations per row: each
// invocation sums a strided subset of the row (as vec4: dim must be a multiple of 4, the
// host checks), then a tree reduction in workgroup memory gives the total. Two passes (mean
// first, then the mean of squared deviations) avoid the cancellation of E[x²] − E[x]². In
// place is safe: an invocation only rewrites the elements it read itself, after both
// reductions.
//
// Dispatch: (rows, 1, 1).

struct Params {
    rows: u32,
    dim: u32,
    eps: f32,
    _pad: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read_write> x: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> gamma: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> beta: array<vec4<f32>>;

const WG: u32 = 64u;
var<workgroup> partial: array<f32, WG>;

// Sum of `v` over the workgroup (every invocation gets the total). Must be called in
// uniform control flow.
fn workgroup_sum(tid: u32, v: f32) -> f32 {
    partial[tid] = v;
    workgroupBarrier();
    for (var stride = WG / 2u; stride > 0u; stride /= 2u) {
        if (tid < stride) {
            partial[tid] += partial[tid + stride];
        }
        workgroupBarrier();
    }
    let total = partial[0];
    workgroupBarrier();  // everyone has read partial[0] before it is reused
    return total;
}

@compute @workgroup_size(64, 1, 1)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) tid: u32) {
    let dim4 = p.dim / 4u;
    let base = wg.x * dim4;
    let n = f32(p.dim);
    let ones = vec4<f32>(1.0);

    var s = 0.0;
    for (var i = tid; i < dim4; i += WG) {
        s += dot(x[base + i], ones);
    }
    let mean = workgroup_sum(tid, s) / n;

    var sq = 0.0;
    for (var i = tid; i < dim4; i += WG) {
        let d = x[base + i] - mean;
        sq += dot(d, d);
    }
    let variance = workgroup_sum(tid, sq) / n;
    let inv = 1.0 / sqrt(variance + p.eps);

    for (var i = tid; i < dim4; i += WG) {
        x[base + i] = (x[base + i] - mean) * inv * gamma[i] + beta[i];
    }
}
