import Foundation
import Hummingbird
import PassWebService

/// Mounts the device protocol of passes and, when the server issues orders, of orders. Both kinds share Apple's
/// registration paths (`/v1/devices/{device}/registrations/{typeIdentifier}[/{identifier}]`): a type identifier
/// starting with `order.` goes to the order routes, any other to the pass routes, so each kind's routes only ever
/// see their own store. Without orders the pass routes are mounted directly, exactly as before.
struct DeviceRouter: Sendable {
    let passes: DeviceRoutes<PassIssuer>
    let orders: DeviceRoutes<OrderIssuer>?

    func add(to group: RouterGroup<WebServiceRequestContext>) {
        let registrations = DeviceRoutes<PassIssuer>.registrations
        passes.addFetch(to: group)
        passes.addPersonalization(to: group)
        guard let orders else {
            group.post("\(registrations)/:serialNumber", use: passes.register)
            group.delete("\(registrations)/:serialNumber", use: passes.unregister)
            group.get(RouterPath(registrations), use: passes.changedItems)
            return
        }
        orders.addFetch(to: group)
        let passes = self.passes
        group.post("\(registrations)/:serialNumber") { request, context in
            try await Self.isOrder(context)
                ? orders.register(request, context: context) : passes.register(request, context: context)
        }
        group.delete("\(registrations)/:serialNumber") { request, context in
            try await Self.isOrder(context)
                ? orders.unregister(request, context: context) : passes.unregister(request, context: context)
        }
        group.get(RouterPath(registrations)) { request, context in
            try await Self.isOrder(context)
                ? orders.changedItems(request, context: context) : passes.changedItems(request, context: context)
        }
    }

    /// Whether a registration path names an order type (`order.…`, also percent-encoded).
    private static func isOrder(_ context: WebServiceRequestContext) -> Bool {
        guard let raw = context.parameters.get("passTypeIdentifier") else { return false }
        if raw.hasPrefix("order.") { return true }
        return raw.utf8.contains(UInt8(ascii: "%")) && raw.removingPercentEncoding?.hasPrefix("order.") == true
    }
}
