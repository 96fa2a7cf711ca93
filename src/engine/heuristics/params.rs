//! `heuristic_params!` declares a heuristic's parameters once: the struct, its serde form, its
//! defaults and the one-line documentation `searchlab heuristics` prints all come from the same
//! declaration.

/// Declare a `Params` struct: `field: Type [LOW..=HIGH] = default` with a `///` line each (and
/// `#[serde(alias = "old")]` where a parameter was renamed, so older results files read). The
/// range, given for every number, is the parameter's real range: the UCI option advertises it
/// and the CLI, UCI and JSON settings are checked against it (`Params::out_of_range`).
macro_rules! heuristic_params {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[doc = $doc:literal])+ $(#[serde(alias = $alias:literal)])?
               pub $field:ident : $ty:ty $([$low:literal ..= $high:literal])? = $default:expr ),* $(,)?
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
