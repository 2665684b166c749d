//! The adapter and device (the browser's WebGPU on wasm32, Vulkan natively), running the
//! module's futures natively ([`block_on`]), reading results back, and error scopes.

use super::gpu_err;
use crate::EmbedError;
#[cfg(target_arch = "wasm32")]
use wasm_bindgen::JsCast;

/// Describes an adapter for people: the browser's `GPUAdapterInfo` fields that are set
/// (`extra`; natively the driver), the name, and whether it is a software adapter.
fn describe(info: &wgpu::AdapterInfo, extra: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    if !extra.is_empty() {
        parts.push(extra.to_owned());
    }
    if !info.name.is_empty() && !extra.contains(&info.name) {
        parts.push(info.name.clone());
    }
    if parts.is_empty() {
        parts.push("unnamed adapter".into());
    }
    if info.device_type == wgpu::DeviceType::Cpu {
        parts.push("software fallback adapter".into());
    }
    parts.join(", ")
}

/// `vendor architecture device description` of `navigator.gpu.requestAdapter()`'s `info`
/// (wgpu reports only the description); empty if unavailable.
#[cfg(target_arch = "wasm32")]
async fn js_adapter_info() -> String {
    use js_sys::Reflect;
    let get = |o: &wasm_bindgen::JsValue, k: &str| Reflect::get(o, &k.into()).ok();
    let Some(gpu) = get(&js_sys::global(), "navigator").and_then(|n| get(&n, "gpu")) else {
        return String::new();
    };
    let Some(request) = get(&gpu, "requestAdapter")
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call0(&gpu).ok())
        .and_then(|p| p.dyn_into::<js_sys::Promise>().ok())
    else {
        return String::new();
    };
    let Ok(adapter) = wasm_bindgen_futures::JsFuture::from(request).await else {
        return String::new();
    };
    let Some(info) = get(&adapter, "info").filter(|i| i.is_object()) else {
        return String::new();
    };
    ["vendor", "architecture", "device", "description"]
        .iter()
        .filter_map(|k| get(&info, k).and_then(|v| v.as_string()))
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The high-performance adapter of `backends` (the browser's WebGPU, or Vulkan natively).
async fn high_performance_adapter(
    backends: wgpu::Backends,
) -> Result<wgpu::Adapter, wgpu::RequestAdapterError> {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    instance
        .request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            ..Default::default()
        })
        .await
}

/// A WebGPU adapter from the browser, and its description; the error says why there is none.
#[cfg(target_arch = "wasm32")]
pub(crate) async fn request_adapter() -> Result<(wgpu::Adapter, String), EmbedError> {
    let has_gpu = js_sys::Reflect::get(&js_sys::global(), &"navigator".into())
        .ok()
        .and_then(|n| js_sys::Reflect::get(&n, &"gpu".into()).ok())
        .is_some_and(|g| !g.is_undefined() && !g.is_null());
    if !has_gpu {
        return Err(gpu_err(
            "navigator.gpu is missing: this browser has no WebGPU (or it is disabled)",
        ));
    }
    let adapter = high_performance_adapter(wgpu::Backends::BROWSER_WEBGPU)
        .await
        .map_err(|_| {
            gpu_err(
                "navigator.gpu.requestAdapter() returned no adapter (the GPU may be disabled \
                 or blocklisted)",
            )
        })?;
    let info = describe(&adapter.get_info(), &js_adapter_info().await);
    Ok((adapter, info))
}

/// A Vulkan adapter (natively), preferring a hardware GPU, and its description (name,
/// driver, `software fallback adapter` for lavapipe); the error says why there is none.
#[cfg(not(target_arch = "wasm32"))]
pub async fn request_adapter() -> Result<(wgpu::Adapter, String), EmbedError> {
    let adapter = high_performance_adapter(wgpu::Backends::VULKAN)
        .await
        .map_err(|e| {
            gpu_err(format!(
                "no Vulkan adapter ({e}): install a Vulkan driver (Debian: libvulkan1 and \
                 mesa-vulkan-drivers for the lavapipe software adapter)"
            ))
        })?;
    let info = adapter.get_info();
    let driver = [info.driver.as_str(), info.driver_info.as_str()]
        .iter()
        .filter(|s| !s.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    let mut described = describe(&info, "");
    described.push_str("; Vulkan");
    if !driver.is_empty() {
        described.push_str(&format!(", driver {driver}"));
    }
    Ok((adapter, described))
}

/// A device with `limits` (`requestDevice`), with uncaptured errors logged (browser console,
/// or stderr natively) rather than lost.
pub(crate) async fn request_device(
    adapter: &wgpu::Adapter,
    limits: wgpu::Limits,
) -> Result<(wgpu::Device, wgpu::Queue), EmbedError> {
    let (device, queue) = adapter
        .request_device(&wgpu::DeviceDescriptor {
            label: Some("memeboard-embed"),
            required_limits: limits,
            ..Default::default()
        })
        .await
        .map_err(|e| gpu_err(format!("requestDevice failed: {e}")))?;
    device.on_uncaptured_error(std::sync::Arc::new(|e: wgpu::Error| {
        #[cfg(target_arch = "wasm32")]
        web_sys::console::error_1(&format!("memeboard-embed WebGPU error: {e}").into());
        #[cfg(not(target_arch = "wasm32"))]
        eprintln!("memeboard-embed GPU error: {e}");
    }));
    Ok((device, queue))
}

/// Runs a future of this module to completion on the current thread (native only: the
/// futures of `wgpu`'s native backends are ready once [`read_back`] has polled the device,
/// so a park/unpark waker is all a test, benchmark or server thread needs).
///
/// ```ignore
/// let model = memeboard_embed::gpu::block_on(GpuBert::new(config, weights))?;
/// ```
#[cfg(not(target_arch = "wasm32"))]
pub fn block_on<F: std::future::Future>(future: F) -> F::Output {
    use std::task::{Context, Poll, Wake, Waker};
    struct Unpark(std::thread::Thread);
    impl Wake for Unpark {
        fn wake(self: std::sync::Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = Waker::from(std::sync::Arc::new(Unpark(std::thread::current())));
    let mut context = Context::from_waker(&waker);
    let mut future = std::pin::pin!(future);
    loop {
        match future.as_mut().poll(&mut context) {
            Poll::Ready(out) => return out,
            Poll::Pending => std::thread::park(),
        }
    }
}

/// Reads `bytes` of `buffer` back to the CPU (copy to a staging buffer, map, await).
pub(super) async fn read_back(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    mut encoder: wgpu::CommandEncoder,
    buffer: &wgpu::Buffer,
    bytes: u64,
) -> Result<Vec<f32>, EmbedError> {
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("read-back"),
        size: bytes,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, bytes);
    queue.submit([encoder.finish()]);
    let (tx, rx) = futures_channel::oneshot::channel();
    staging.slice(..).map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r);
    });
    // Natively nothing runs the callbacks but a poll: wait for the submission here.
    #[cfg(not(target_arch = "wasm32"))]
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| gpu_err(format!("waiting for the GPU failed: {e}")))?;
    rx.await
        .map_err(|_| gpu_err("the read-back was cancelled (device lost?)"))?
        .map_err(|e| gpu_err(format!("mapping the result failed: {e}")))?;
    let out = {
        let view = staging
            .slice(..)
            .get_mapped_range()
            .map_err(|e| gpu_err(format!("reading the mapped result failed: {e}")))?;
        view.chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect()
    };
    staging.unmap();
    staging.destroy();
    Ok(out)
}

/// Errors caught by the device's error scopes (validation, out-of-memory, internal), pushed
/// by [`Scopes::push`] and popped, synchronously and in reverse order, by [`Scopes::pop`];
/// the returned future only awaits the browser's answer, so overlapping calls cannot
/// interleave pushes and pops.
pub(super) struct Scopes(Vec<wgpu::ErrorScopeGuard>);

impl Scopes {
    pub(super) fn push(device: &wgpu::Device) -> Self {
        Self(vec![
            device.push_error_scope(wgpu::ErrorFilter::Validation),
            device.push_error_scope(wgpu::ErrorFilter::OutOfMemory),
            device.push_error_scope(wgpu::ErrorFilter::Internal),
        ])
    }

    pub(super) fn pop(mut self) -> impl std::future::Future<Output = Result<(), EmbedError>> {
        let mut futures = Vec::new();
        while let Some(guard) = self.0.pop() {
            futures.push(guard.pop());
        }
        async move {
            for f in futures {
                if let Some(e) = f.await {
                    return Err(gpu_err(e.to_string()));
                }
            }
            Ok(())
        }
    }
}

impl Drop for Scopes {
    /// Scopes not popped (an early return) are dropped innermost first, as wgpu requires.
    fn drop(&mut self) {
        while let Some(guard) = self.0.pop() {
            drop(guard);
        }
    }
}
