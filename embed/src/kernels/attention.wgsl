// Scaled dot-product self-attention for a batch of sentences packed into rows (no padding),
// all heads, fused in one kernel: for query row i and head h (one workgroup of 64
// invocations each), with row i's sentence occupying rows start … start+len−1 (its span,
// from the host: the batch's mask),
//
//     s_j  = (q_i · k_j) · scale                       j = start … start+len−1, scale = 1/√d
//     p_j  = exp(s_j − max s) / Σ exp(s − max s)       (softmax, max subtracted first)
//     ctx_i = Σ_j p_j · v_j
//
// q, k and v are the three H-wide thirds of the fused projection row qkv[j] (3H wide); head
// h uses columns h·d … h·d + d − 1 of each third. Rows of other sentences are never read,
// so no mask is needed. The len scores of the row stay in workgroup memory (MAX_T, the
// model's positions and so the longest span, is a
// `const` the host prepends); the max and the sum are workgroup tree reductions; the
// probabilities are normalised before the weighted sum, as in the CPU path. Rows are read
// as vec4 (H and d must be multiples of 4; the host checks).
//
// Dispatch: (rows, heads, 1).

struct Params {
    t: u32,         // rows (tokens of all sentences)
    hidden: u32,    // H
    head_dim: u32,  // d
    scale: f32,     // 1/√d
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> qkv: array<vec4<f32>>;      // t × 3H
@group(0) @binding(2) var<storage, read> spans: array<vec2<u32>>;    // t × (start, len)
@group(0) @binding(3) var<storage, read_write> ctx: array<vec4<f32>>; // t × H

const WG: u32 = 64u;
var<workgroup> probs: array<f32, MAX_T>;
var<workgroup> partial: array<f32, WG>;

// Tree reduction over the workgroup; `op` 0 = sum, 1 = max. Uniform control flow only.
fn workgroup_reduce(tid: u32, v: f32, op: u32) -> f32 {
    partial[tid] = v;
    workgroupBarrier();
    for (var stride = WG / 2u; stride > 0u; stride /= 2u) {
        if (tid < stride) {
            let other = partial[tid + stride];
            if (op == 0u) {
                partial[tid] += other;
            } else {
                partial[tid] = max(partial[tid], other);
            }
        }
        workgroupBarrier();
    }
    let total = partial[0];
    workgroupBarrier();
    return total;
}

@compute @workgroup_size(64, 1, 1)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) tid: u32) {
    let i = wg.x;
    let head = wg.y;
    // In vec4 units: a qkv row, an H-wide third, one head.
    let stride = 3u * p.hidden / 4u;
    let third = p.hidden / 4u;
    let d4 = p.head_dim / 4u;
    let q = i * stride + head * d4;
    let span = spans[i];
    let first = span.x;
    let len = span.y;

    // Scores, and their maximum.
    var local_max = -3.402823e38;
    for (var j = tid; j < len; j += WG) {
        let k = (first + j) * stride + third + head * d4;
        var s = 0.0;
        for (var e = 0u; e < d4; e++) {
            s += dot(qkv[q + e], qkv[k + e]);
        }
        s *= p.scale;
        probs[j] = s;
        local_max = max(local_max, s);
    }
    let row_max = workgroup_reduce(tid, local_max, 1u);

    // Softmax: exponentials, their sum, then normalisation (each invocation touches only
    // its own j, so no barrier is needed between these loops).
    var local_sum = 0.0;
    for (var j = tid; j < len; j += WG) {
        let e = exp(probs[j] - row_max);
        probs[j] = e;
        local_sum += e;
    }
    let total = workgroup_reduce(tid, local_sum, 0u);
    for (var j = tid; j < len; j += WG) {
        probs[j] = probs[j] / total;
    }
    workgroupBarrier();

    // Weighted sum of the values: invocation e computes output columns 4e … 4e+3.
    for (var e = tid; e < d4; e += WG) {
        var acc = vec4<f32>(0.0);
        let v = 2u * third + head * d4 + e;
        for (var j = 0u; j < len; j++) {
            acc += probs[j] * qkv[(first + j) * stride + v];
        }
        ctx[i * third + head * d4 + e] = acc;
    }
}
