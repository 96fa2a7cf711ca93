//! `heuristic_params!` declares a heuristic's parameters once: the struct, its serde form, its
//! defaults and the one-line documentation `searchlab heuristics` prints all come from the same
//! declaration.

/// Declare a `Params` struct: `field: Type [LOW..=HIGH] = default` with a `///` line each (and
/// `#[serde(alias = "old")]` where a parameter was renamed, so older results files read). The
/// range, given for every number, is the parameter's real range: the UCI option advertises it
/// and the CLI, UCI and JSON settings are checked against it (`Params::out_of_range`).
/// `[LOW..=HIGH, tune TLOW..=THIGH]` also declares the range a tuner searches when the rule
/// of `tuning_range` would not suit the parameter (a start of 0 on a wide scale).
/// `[LOW..=HIGH; structural]` marks a parameter that chooses a form rather than a magnitude
/// (a count of slots, a divisor whose 0 switches a term off, a ceiling whose 0 switches a
/// pruning off): SPSA's small steps around it mean nothing, so `heuristics --spsa` leaves it
/// out (issue 61).
macro_rules! heuristic_params {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[doc = $doc:literal])+ $(#[serde(alias = $alias:literal)])?
               pub $field:ident : $ty:ty
               $([$low:literal ..= $high:literal $(, tune $tlow:literal ..= $thigh:literal)?
                  $(; $structural:ident)?])?
               = $default:expr ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct $name {
            $( $(#[doc = $doc])+ $(#[serde(alias = $alias)])? pub $field: $ty ),*
        }

        impl Default for $name {
            fn default() -> Self {
                $name { $( $field: $default ),* }
            }
        }

        impl $name {
            /// Each parameter's name and documentation, in declaration order.
            pub const DOCS: &'static [(&'static str, &'static str)] =
                &[ $( (stringify!($field), concat!($($doc),+)) ),* ];

            /// The range of each numeric parameter: (name, low, high).
            pub const RANGES: &'static [(&'static str, f64, f64)] =
                &[ $( $( (stringify!($field), $low as f64, $high as f64), )? )* ];

            /// The tuning ranges declared apart from the rule: (name, low, high).
            pub const TUNING: &'static [(&'static str, f64, f64)] =
                &[ $( $( $( (stringify!($field), $tlow as f64, $thigh as f64), )? )? )* ];

            /// The parameters declared `; structural`: (name, the word `structural`).
            pub const STRUCTURAL: &'static [(&'static str, &'static str)] =
                &[ $( $( $( (stringify!($field), stringify!($structural)), )? )? )* ];

            /// The first parameter outside its range, as a message.
            #[allow(clippy::unnecessary_cast)]
            pub fn out_of_range(&self) -> Option<String> {
                $( $(
                    let value = self.$field as f64;
                    if !(($low as f64)..=($high as f64)).contains(&value) {
                        return Some(format!(
                            "{} is {}..{}, got {}",
                            stringify!($field), $low, $high, value
                        ));
                    }
                )? )*
                None
            }
        }
    };
}

pub(crate) use heuristic_params;

/// The range a tuner searches for a parameter that starts at `start` within its validation
/// range `[low, high]`, unless its declaration names one: `start ± |start|` (a factor of two
/// each way, as SPSA tunes are usually set up), or `start ± 10` for a start below 1 in size,
/// kept inside `[low, high]`. The validation range says what the search accepts; this says
/// where a tune is worth its games (issue 43: `late_move_pruning.base`, 3, was offered
/// 0..1000).
pub fn tuning_range(start: f64, (low, high): (f64, f64)) -> (f64, f64) {
    let half = if start.abs() >= 1.0 {
        start.abs()
    } else {
        10.0
    };
    ((start - half).max(low), (start + half).min(high))
}
