//! Draws that hide gold, keyed by a per-installation secret: the fixed panel display (the
//! order task's gold in disguise) and the option order models see on clip questions (which,
//! with choices listed answer first, would give the answer away).
//!
//! A draw computed from a constant seed and a public id is public: anyone recomputes it. So
//! every such draw here takes its seed from a keyed hash: the installation's secret (256 bits
//! from the OS, made at first start, stored in `draw_keys` and never in any response) keys a
//! per-benchmark key (HMAC-SHA256 of the benchmark slug), which keys one 64-bit seed per
//! purpose and item (HMAC-SHA256 of the purpose and the item's source id). Equal keys give
//! equal draws, so a re-import keeps every display and order; an owner who moves a benchmark
//! to another installation carries its key with `memeboard secret export --benchmark SLUG`
//! and `memeboard secret import --benchmark SLUG KEY` (the benchmark key, not the secret,
//! which keys every other benchmark of the installation too).
//!
//! Participant option orders and attention checks are drawn from each session's own random
//! seed, and study samples from a random study seed: those need no key. The same keys also
//! draw the noise on published crowd figures (see crowd/published.rs), fixed per snapshot so that
//! reading a figure again never averages it away.

use crate::storage::Storage;
use anyhow::Context;
use sha2::{Digest, Sha256};

/// `draw_keys` scope of the installation's secret.
const INSTALLATION_SCOPE: &str = "installation";

/// The `draw_keys` scope of an imported key of benchmark `slug`.
fn benchmark_scope(slug: &str) -> String {
    format!("benchmark:{slug}")
}

/// What a seed is drawn for: a distinct input of the keyed hash per purpose, so that two
/// draws of one item are unrelated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// The fixed shuffled display of a comic (both shuffled order-recovery variants).
    PanelDisplay,
    /// The one option order models see on a clip question.
    ClipModelOrder,
    /// The noise on a published crowd figure over hidden items (see crowd/published.rs).
    CrowdNoise,
}

impl Purpose {
    fn label(self) -> &'static [u8] {
        match self {
            Self::PanelDisplay => b"panel-display",
            Self::ClipModelOrder => b"clip-model-order",
            Self::CrowdNoise => b"crowd-noise",
        }
    }
}

/// 256 secret bits (the installation's secret or a benchmark key). `Debug` shows nothing of
/// them, so that a log line cannot leak one.
#[derive(Clone, PartialEq, Eq)]
pub struct Key([u8; 32]);

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Key(…)")
    }
}

impl Key {
    /// 256 fresh bits from the operating system's generator.
    pub fn generate() -> anyhow::Result<Self> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes)
            .map_err(|e| anyhow::anyhow!("OS randomness unavailable: {e}"))?;
        Ok(Self(bytes))
    }

    /// The key as 64 lowercase hex digits (how it is stored and exported).
    pub fn to_hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Reads 64 hex digits (surrounding spaces ignored), with a message saying what was
    /// expected otherwise.
    pub fn from_hex(text: &str) -> anyhow::Result<Self> {
        let text = text.trim();
        if text.len() != 64 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            anyhow::bail!(
                "expected a key of 64 hexadecimal digits (as `memeboard secret export` prints), \
                 found {} character(s)",
                text.chars().count()
            );
        }
        let mut bytes = [0u8; 32];
        for (i, byte) in bytes.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16)?;
        }
        Ok(Self(bytes))
    }

    /// The key of benchmark `slug` derived from this installation secret.
    pub fn benchmark_key(&self, slug: &str) -> Key {
        Key(hmac_sha256(
            &self.0,
            &[b"memeboard/benchmark-key/v1", slug.as_bytes()],
        ))
    }

    /// The seed of one draw under this benchmark key: `purpose` for the item whose public
    /// source id is `source_id`. Unpredictable without the key; fixed for equal inputs.
    pub fn seed(&self, purpose: Purpose, source_id: &str) -> u64 {
        let mac = hmac_sha256(&self.0, &[purpose.label(), source_id.as_bytes()]);
        let mut first = [0u8; 8];
        first.copy_from_slice(&mac[..8]);
        u64::from_le_bytes(first)
    }

    /// A uniform draw in (0, 1) under this key: [`Key::seed`]'s 53 top bits, centred in
    /// their cell so that neither end is ever reached.
    pub fn unit(&self, purpose: Purpose, source_id: &str) -> f64 {
        ((self.seed(purpose, source_id) >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }
}

/// HMAC-SHA256 (RFC 2104) of the parts, each preceded by its length so that no two part
/// lists collide.
fn hmac_sha256(key: &[u8; 32], parts: &[&[u8]]) -> [u8; 32] {
    let mut inner_pad = [0x36u8; 64];
    let mut outer_pad = [0x5cu8; 64];
    for (i, k) in key.iter().enumerate() {
        inner_pad[i] ^= k;
        outer_pad[i] ^= k;
    }
    let mut inner = Sha256::new();
    inner.update(inner_pad);
    for part in parts {
        inner.update((part.len() as u64).to_le_bytes());
        inner.update(part);
    }
    let mut outer = Sha256::new();
    outer.update(outer_pad);
    outer.update(inner.finalize());
    outer.finalize().into()
}

/// The installation's secret, made (from the OS generator) and stored on first use; every
/// later call, and every server sharing the database, reads the same one.
pub async fn installation_secret(storage: &Storage) -> anyhow::Result<Key> {
    if let Some(hex) = storage.draw_key(INSTALLATION_SCOPE).await? {
        return Key::from_hex(&hex).context("draw_keys: the stored installation secret");
    }
    let fresh = Key::generate()?;
    let stored = storage
        .insert_draw_key_if_absent(INSTALLATION_SCOPE, &fresh.to_hex())
        .await?;
    Key::from_hex(&stored).context("draw_keys: the stored installation secret")
}

/// The key of benchmark `slug`: the one imported for it, if any, else derived from the
/// installation's secret.
pub async fn benchmark_key(storage: &Storage, slug: &str) -> anyhow::Result<Key> {
    if let Some(hex) = storage.draw_key(&benchmark_scope(slug)).await? {
        return Key::from_hex(&hex)
            .with_context(|| format!("draw_keys: the imported key of benchmark `{slug}`"));
    }
    Ok(installation_secret(storage).await?.benchmark_key(slug))
}

/// `memeboard secret export`: the benchmark's key (hex), or with no benchmark the
/// installation's secret. Only the operator (shell access to the server's database) reaches
/// this; no HTTP route returns either.
pub async fn export_key(storage: &Storage, benchmark: Option<&str>) -> anyhow::Result<String> {
    Ok(match benchmark {
        Some(slug) => benchmark_key(storage, slug).await?,
        None => installation_secret(storage).await?,
    }
    .to_hex())
}

/// `memeboard secret import`: stores an exported key: a benchmark's (its next import draws
/// what the exporting installation drew), or with no benchmark the installation's secret
/// (replacing it: benchmarks imported later, and re-imports, draw from the new one).
pub async fn import_key(
    storage: &Storage,
    benchmark: Option<&str>,
    key_hex: &str,
) -> anyhow::Result<()> {
    let key = Key::from_hex(key_hex)?;
    let scope = benchmark.map_or_else(|| INSTALLATION_SCOPE.to_owned(), benchmark_scope);
    storage.set_draw_key(&scope, &key.to_hex()).await?;
    Ok(())
}

/// `memeboard secret …`.
#[derive(Debug, clap::Subcommand)]
pub enum SecretAction {
    /// Print a benchmark's draw key (or, without --benchmark, the installation's secret,
    /// which keys every benchmark here). Example: memeboard secret export --benchmark demo
    Export {
        /// Benchmark slug.
        #[arg(long)]
        benchmark: Option<String>,
    },
    /// Store a key printed by `secret export` elsewhere: the benchmark's next import draws
    /// what that installation drew. Example: memeboard secret import --benchmark demo KEY
    Import {
        /// Benchmark slug (without it: replace the installation's secret).
        #[arg(long)]
        benchmark: Option<String>,
        /// 64 hexadecimal digits.
        key: String,
    },
}

/// Runs `memeboard secret export` (the key on standard output) or `import`.
pub async fn cli(storage: &Storage, action: SecretAction) -> anyhow::Result<()> {
    match action {
        SecretAction::Export { benchmark } => {
            println!("{}", export_key(storage, benchmark.as_deref()).await?);
        }
        SecretAction::Import { benchmark, key } => {
            import_key(storage, benchmark.as_deref(), &key).await?;
            eprintln!(
                "stored the key of {}",
                benchmark.map_or("this installation".into(), |b| format!("benchmark `{b}`"))
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_follows_the_rfc_2104_construction() {
        // H((K ⊕ opad) ‖ H((K ⊕ ipad) ‖ message)), the key zero-padded to the block size,
        // computed directly; each part of the message is preceded by its length.
        let key = [7u8; 32];
        let mac = hmac_sha256(&key, &[b"abc"]);
        let mut ipad = vec![0x36u8 ^ 7; 32];
        ipad.extend([0x36u8; 32]);
        let mut opad = vec![0x5cu8 ^ 7; 32];
        opad.extend([0x5cu8; 32]);
        let mut msg = 3u64.to_le_bytes().to_vec();
        msg.extend(b"abc");
        let inner = Sha256::digest([ipad, msg].concat());
        let outer: [u8; 32] = Sha256::digest([opad, inner.to_vec()].concat()).into();
        assert_eq!(mac, outer);
    }

    #[test]
    fn seeds_depend_on_key_purpose_and_item_and_parse_back() {
        let secret = Key::from_hex(&"ab".repeat(32)).unwrap();
        let a = secret.benchmark_key("demo-panel");
        let b = secret.benchmark_key("other");
        assert_eq!(a, secret.benchmark_key("demo-panel"));
        assert_ne!(a, b);
        let s = a.seed(Purpose::PanelDisplay, "comic-1");
        assert_eq!(s, a.seed(Purpose::PanelDisplay, "comic-1"));
        assert_ne!(s, a.seed(Purpose::ClipModelOrder, "comic-1"));
        assert_ne!(s, a.seed(Purpose::PanelDisplay, "comic-2"));
        assert_ne!(s, b.seed(Purpose::PanelDisplay, "comic-1"));
        assert_eq!(Key::from_hex(&a.to_hex()).unwrap(), a);
        assert!(Key::from_hex("abc").is_err());
        assert!(Key::from_hex(&"zz".repeat(32)).is_err());
        assert_eq!(format!("{a:?}"), "Key(…)");
    }
}
