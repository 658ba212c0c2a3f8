/// The tables one kind of Wallet item lives in, in the SQL stores.
///
/// Passes and orders follow the same device protocol, so the stores run one set of statements for both: orders live
/// in tables of their own with the pass tables' layout (`pass_type_identifier` holds the `orderTypeIdentifier`,
/// `serial_number` the `orderIdentifier`), each kind with its own devices, registrations, push queue and update tag
/// counter. A pass request never reads an order table and the reverse, and the pass statements are the same text as
/// before orders existed (same plans, same indexes).
package struct ItemTables: Sendable {
    /// The kind's word (`pass`, `order`), in index and prepared statement names.
    package let kind: String
    /// The items (`passes` or `orders`).
    package let items: String
    /// The devices registered for items of this kind.
    package let devices: String
    /// Device registrations for items.
    package let registrations: String
    /// The pushes owed.
    package let pushQueue: String
    /// The name of the kind's update tag row in `counters`.
    package let counter: String

    /// The tables of passes.
    package static let passes = ItemTables(
        kind: "pass", items: "passes", devices: "devices", registrations: "registrations", pushQueue: "push_queue",
        counter: "update_tag")
    /// The tables of orders.
    package static let orders = ItemTables(
        kind: "order", items: "orders", devices: "order_devices", registrations: "order_registrations",
        pushQueue: "order_push_queue", counter: "order_update_tag")

    /// The name a template of this kind has in `template_versions`, shared by both kinds: a pass template as it is
    /// named, an order template after `order:` (template names have no colon), so a pass template and an order
    /// template of one name keep apart.
    package func templateVersionName(_ name: String) -> String {
        kind == Self.passes.kind ? name : "\(kind):\(name)"
    }
}
