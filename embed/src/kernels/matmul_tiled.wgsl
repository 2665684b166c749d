// Dense layer with bias and a fused epilogue, y[r][c] = epilogue(Σ_k x[r][k]·w[c][k] + bias[c]),
// exactly as matmul.wgsl (same bindings, parameters, epilogues and order of the additions
// after the sum) but tiled through workgroup memory, for batches on hardware GPUs:
//
// - a 16×16 workgroup (256 invocations) computes a 64×64 tile of y; invocation (tx, ty)
//   holds a 4×4 register block: rows 4·ty … 4·ty+3 and columns 4·tx … 4·tx+3 of the tile;
// - k advances in slices of 16: each invocation loads one vec4 of x (tile row lid/4,
//   k-quad lid%4) and one vec4 of w into workgroup memory, stored k-major (`xs[k][row]`,
//   `ws[k][col]`, as vec4s of 4 consecutive rows/columns), so that the inner loop reads one
//   vec4 of x and one of w per k and does 16 multiply-adds: 16 global loads of a slice
//   feed 64×64×16 multiply-adds, 16× fewer global loads than matmul.wgsl's registers alone;
// - two barriers per slice (slice loaded; slice consumed).
//
// Rows past M and columns past N are clamped for reading (valid memory) and never written;
// a slice past K is zero-filled. K and N must be multiples of 4 (the host checks).
// The sum runs in k order per output, in f32 (as the CPU path; the rounding differs only in
// association, well within the tests' tolerance). Dispatch: (ceil(N / 64), ceil(M / 64), 1).

struct Params {
    m: u32,  // rows of x and y (tokens of all sentences)
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

const TILE: u32 = 64u;
const SLICE: u32 = 16u;
// xs[k * 16 + q] = x rows 4q … 4q+3 at slice column k; ws likewise for w rows (y columns).
var<workgroup> xs: array<vec4<f32>, 256>;
var<workgroup> ws: array<vec4<f32>, 256>;

// Bias, epilogue and store of y[r][c0 … c0+3] (c0 a multiple of 4).
fn finish(r: u32, c0: u32, acc: vec4<f32>) {
    if (r >= p.m || c0 >= p.n) {
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

@compute @workgroup_size(16, 16, 1)
fn main(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(local_invocation_id) lid3: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let tx = lid3.x;
    let ty = lid3.y;
    let row0 = wg.y * TILE;
    let col0 = wg.x * TILE;
    let k4 = p.k / 4u;
    // What this invocation loads: tile row (or column) `lr`, k-quad `lq` of the slice.
    let lr = lid / 4u;
    let lq = lid % 4u;
    let xrow = min(row0 + lr, p.m - 1u) * k4;
    let wrow = min(col0 + lr, p.n - 1u) * k4;
    // Where it stores: component lr % 4 of vec4 lr / 4, for the slice's k = 4·lq … 4·lq+3.
    let slot = lr / 4u;
    let comp = lr % 4u;

    var a0 = vec4<f32>(0.0);
    var a1 = vec4<f32>(0.0);
    var a2 = vec4<f32>(0.0);
    var a3 = vec4<f32>(0.0);
    let slices = (k4 + 3u) / 4u;
    for (var s = 0u; s < slices; s++) {
        let kq = s * 4u + lq;
        var xv = vec4<f32>(0.0);
        var wv = vec4<f32>(0.0);
        if (kq < k4) {
            xv = x[xrow + kq];
            wv = w[wrow + kq];
        }
        for (var e = 0u; e < 4u; e++) {
            xs[(lq * 4u + e) * 16u + slot][comp] = xv[e];
            ws[(lq * 4u + e) * 16u + slot][comp] = wv[e];
        }
        workgroupBarrier();
        for (var kk = 0u; kk < SLICE; kk++) {
            let xr = xs[kk * 16u + ty];
            let wc = ws[kk * 16u + tx];
            a0 += xr.x * wc;
            a1 += xr.y * wc;
            a2 += xr.z * wc;
            a3 += xr.w * wc;
        }
        workgroupBarrier();
    }
    let r = row0 + ty * 4u;
    let c = col0 + tx * 4u;
    finish(r, c, a0);
    finish(r + 1u, c, a1);
    finish(r + 2u, c, a2);
    finish(r + 3u, c, a3);
}
