//! `heuristic_params!` declares a heuristic's parameters once: the struct, its serde form, its
//! defaults and the one-line documentation `searchlab heuristics` prints all come from the same
//! declaration.

/// Declare a `Params` struct: `field: Type = default` with a `///` line each.
macro_rules! heuristic_params {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[doc = $doc:literal])+ pub $field:ident : $ty:ty = $default:expr ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct $name {
            $( $(#[doc = $doc])+ pub $field: $ty ),*
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
        }
    };
}

pub(crate) use heuristic_params;
