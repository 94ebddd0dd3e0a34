//! Values the application state holds for a module above this layer, whose type only that
//! module can name: the group-commit queue of `orders::placement` (its jobs carry an order's
//! intent and answer), the open-API keys the guard read in the last second, the console's
//! recent profiles. Moving those types down here would bring the placement engine, the API
//! keys and the user answers with them.
//!
//! So the state declares such a field with a marker from here (`Held<Placements>`), and the
//! module that owns the value says what the marker holds, next to the value's type
//! (`impl Holds for held::Placements { type Value = … }`). This layer names nothing above it,
//! and each field is still one concrete type, checked by the compiler.

/// A marker the state names a field by; its owner, above this layer, gives the type.
pub trait Holds {
    type Value: Send + Sync + 'static;
}

/// The value a marker holds.
pub type Held<M> = <M as Holds>::Value;

/// The queue in front of the order placement writers (`orders::placement::group`).
pub enum Placements {}

/// The open-API keys checked in the last second (`merchant_api::guard`).
pub enum RecentKeys {}

/// The own-account answers of the last second (`identity::users`).
pub enum RecentProfiles {}
