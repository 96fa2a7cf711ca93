//! Which network a configuration evaluates `nnue` with. It is resolved once, when the
//! configuration is made (a SPEC's `net=PATH` read and checked, or the process's default), and
//! travels with the configuration as shared weights: a search never looks a network up.
//!
//! The process's default is the embedded network, or the `--net FILE` that `set_default` put
//! in place before any configuration was made.

use std::sync::{Arc, OnceLock};

use super::network::{FILE_BYTES, Network, checksum};

/// The shipped network, embedded in the binary: how it was made is in `net/PROVENANCE.md`
/// beside it, with its checksum.
static EMBEDDED: &[u8] = include_bytes!("net/searchlab.nnue");

/// The checksum `net/PROVENANCE.md` names (a test holds the two together).
pub const EMBEDDED_CHECKSUM: &str = include_str!("net/checksum.txt");

/// The embedded network's file.
pub fn embedded_bytes() -> &'static [u8] {
    EMBEDDED
}

/// A network file's bytes, read no further than a network's size: a file larger than one (a
/// device such as /dev/zero, another format) is refused without reading it whole.
pub fn read_file(path: &std::path::Path) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut bytes = Vec::with_capacity(FILE_BYTES + 1);
    file.take(FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() > FILE_BYTES {
        return Err(format!(
            "more than the {FILE_BYTES} bytes of a network: not a network of this build"
        ));
    }
    Ok(bytes)
}

/// The embedded network, read once, and its file's checksum.
fn embedded_pair() -> &'static (Arc<Network>, u64) {
    static NET: OnceLock<(Arc<Network>, u64)> = OnceLock::new();
    NET.get_or_init(|| {
        let net = Network::from_bytes(EMBEDDED)
            .expect("the embedded network reads (a test checks it, and it is fixed at build time)");
        (Arc::new(net), checksum(EMBEDDED))
    })
}

/// The embedded network.
pub fn embedded() -> Arc<Network> {
    embedded_pair().0.clone()
}

/// The process's default network: set by `set_default`, else the embedded one on first read.
static DEFAULT: OnceLock<(Arc<Network>, u64)> = OnceLock::new();

fn default_pair() -> &'static (Arc<Network>, u64) {
    DEFAULT.get_or_init(|| embedded_pair().clone())
}

/// Make the network file `bytes` the process's default (`--net FILE`, for a candidate net
/// before it is embedded: generation n+1's data is played by generation n). Refused when a
/// configuration has already read the default (it would have two) or when the file does not
/// read.
pub fn set_default(bytes: &[u8]) -> Result<(), String> {
    let net = Network::from_bytes(bytes).map_err(|e| e.to_string())?;
    DEFAULT
        .set((Arc::new(net), checksum(bytes)))
        .map_err(|_| "the network is already in use: choose it before any search".to_string())
}

/// The checksum of the default network when `set_default` replaced the embedded one, for
/// results headers to record (`None`: the embedded one, which the header's commit names).
pub fn replaced_default_checksum() -> Option<String> {
    let (net, sum) = DEFAULT.get()?;
    (!Arc::ptr_eq(net, &embedded_pair().0)).then(|| format!("{sum:016x}"))
}

/// The network a configuration evaluates `nnue` with.
#[derive(Clone, Debug)]
pub struct NetChoice {
    /// The checksum a results header records (`None`: the default, not recorded).
    named: Option<u64>,
    /// The weights; `None` for a checksum read back from a file that no network of this
    /// process matches (`weights` names it).
    weights: Option<Arc<Network>>,
    /// The checksum of the weights' file.
    sum: u64,
}

impl Default for NetChoice {
    /// The process's default network, resolved now.
    fn default() -> Self {
        let (net, sum) = default_pair();
        NetChoice {
            named: None,
            weights: Some(net.clone()),
            sum: *sum,
        }
    }
}

impl PartialEq for NetChoice {
    /// Two choices are the same when they name the same file the same way (a header's
    /// checksum against the plan's).
    fn eq(&self, other: &Self) -> bool {
        self.named == other.named && self.sum == other.sum
    }
}

impl NetChoice {
    /// The network file at `path` (`net=PATH`), read and checked now, named by its checksum.
    pub fn load(path: &std::path::Path) -> Result<Self, String> {
        let bytes = read_file(path).map_err(|e| format!("net={}: {e}", path.display()))?;
        let net =
            Network::from_bytes(&bytes).map_err(|e| format!("net={}: {e}", path.display()))?;
        let sum = checksum(&bytes);
        Ok(NetChoice {
            named: Some(sum),
            weights: Some(Arc::new(net)),
            sum,
        })
    }

    /// The embedded network, named by its checksum.
    pub fn embedded() -> Self {
        let (net, sum) = embedded_pair();
        NetChoice {
            named: Some(*sum),
            weights: Some(net.clone()),
            sum: *sum,
        }
    }

    /// A network named by checksum alone (a results file's): the embedded network or the
    /// process's default when it is one of them, else unresolved.
    pub fn from_checksum(sum: u64) -> Self {
        let known = [embedded_pair(), default_pair()];
        NetChoice {
            named: Some(sum),
            weights: known
                .iter()
                .find(|(_, s)| *s == sum)
                .map(|(n, _)| n.clone()),
            sum,
        }
    }

    /// Not named: the process's default, which results headers leave out.
    pub fn is_default(&self) -> bool {
        self.named.is_none()
    }

    /// The same weights, named by their checksum so that a results header records them.
    pub fn pinned(self) -> Self {
        NetChoice {
            named: Some(self.sum),
            ..self
        }
    }

    /// The weights to evaluate with; a checksum read back from a file that this process
    /// holds no network for has none, and says so.
    pub fn weights(&self) -> Result<&Arc<Network>, String> {
        self.weights.as_ref().ok_or_else(|| {
            format!(
                "network {:016x} is named by its checksum only (read back from a file) and this process has no network with it: give net=PATH with its file",
                self.sum
            )
        })
    }

    /// The checksum of the network it names (the default's too), for headers.
    pub fn checksum(&self) -> String {
        format!("{:016x}", self.sum)
    }
}

impl serde::Serialize for NetChoice {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.named {
            Some(sum) => s.serialize_str(&format!("{sum:016x}")),
            None => s.serialize_none(),
        }
    }
}

impl<'de> serde::Deserialize<'de> for NetChoice {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text: Option<String> = serde::Deserialize::deserialize(d)?;
        match text {
            None => Ok(NetChoice::default()),
            Some(t) => u64::from_str_radix(&t, 16)
                .map(NetChoice::from_checksum)
                .map_err(serde::de::Error::custom),
        }
    }
}
