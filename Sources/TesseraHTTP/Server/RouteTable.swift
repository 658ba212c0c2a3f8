public import HTTPTypes
public import Hummingbird

/// The server's router, which answers a request for a served path with a method it has no route for with 405 and the
/// path's methods in `Allow` (RFC 9110 §15.5.6), rather than the 404 that says the resource does not exist.
///
/// `GET` routes answer `HEAD` too (Hummingbird's `autoGenerateHeadEndpoints`: the `GET` answer without its body).
public final class RouteTable: RouterMethods, HTTPResponderBuilder {
    public typealias Context = WebServiceRequestContext

    private let router = Router(context: WebServiceRequestContext.self, options: .autoGenerateHeadEndpoints)

    /// Creates an empty table.
    public init() {}

    /// Adds a route.
    /// - Parameters:
    ///   - path: The path, with its captures.
    ///   - method: The method.
    ///   - responder: What answers it.
    /// - Returns: The table.
    @discardableResult public func on<Responder: HTTPResponder>(
        _ path: RouterPath, method: HTTPRequest.Method, responder: Responder
    ) -> Self where Responder.Context == Context {
        router.on(path, method: method, responder: responder)
        return self
    }

    /// Every route served, as path and method: those added, and `HEAD` for each `GET` that has no `HEAD` of its own.
    public var routes: [(path: RouterPath, method: HTTPRequest.Method)] {
        let added = router.routes.map { (path: $0.path, method: $0.method) }
        let heads = Set(added.filter { $0.method == .head }.map(\.path.description))
        return added + added.filter { $0.method == .get && !heads.contains($0.path.description) }.map { ($0.path, .head) }
    }

    /// Adds a middleware for the routes added after it.
    /// - Parameter middleware: The middleware.
    /// - Returns: The table.
    @discardableResult public func add(middleware: any MiddlewareProtocol<Request, Response, Context>) -> Self {
        router.add(middleware: middleware)
        return self
    }

    /// The responder for every route, with the 405 answer for the paths served with other methods.
    /// - Returns: The router's responder.
    public func buildResponder() -> RouterResponder<Context> {
        // Added last, so only the router's not-found answer passes through it (Hummingbird gives that answer every
        // middleware, and a route only those added before it): requests the routes serve skip it.
        router.add(middleware: MethodNotAllowedMiddleware(paths: ServedPaths(routes)))
        return router.buildResponder()
    }
}

/// Every route's path and methods, to find the methods a request's path is served with.
struct ServedPaths: Sendable {
    private struct Entry: Sendable {
        var components: [RouterPath.Element]
        var methods: Set<HTTPRequest.Method>
    }

    private let entries: [Entry]

    init(_ routes: [(path: RouterPath, method: HTTPRequest.Method)]) {
        var byPath: [String: Entry] = [:]
        var order: [String] = []
        for route in routes {
            let key = route.path.components.map(\.description).joined(separator: "/")
            if byPath[key] == nil {
                byPath[key] = Entry(components: route.path.components, methods: [])
                order.append(key)
            }
            byPath[key]?.methods.insert(route.method)
        }
        entries = order.compactMap { byPath[$0] }
    }

    /// The methods the route serving `path` answers, or `nil` when no route serves the path. When several routes
    /// match (a literal segment and a capture), the one the router prefers: literal segments before captures, from
    /// the first segment on.
    func methods(for path: String) -> Set<HTTPRequest.Method>? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        var best: (rank: [Int], methods: Set<HTTPRequest.Method>)?
        for entry in entries {
            guard let rank = Self.rank(entry.components, segments) else { continue }
            if let current = best, !rank.lexicographicallyPrecedes(current.rank) { continue }
            best = (rank, entry.methods)
        }
        return best?.methods
    }

    /// How specifically `components` match `segments` (0 for a literal segment, 1 for a pattern, 2 for `**`, per
    /// segment), or `nil` when they do not match.
    private static func rank(_ components: [RouterPath.Element], _ segments: [Substring]) -> [Int]? {
        var rank: [Int] = []
        for (index, component) in components.enumerated() {
            if component.description == "**", !(component == "**") {
                return segments.count >= index ? rank + [2] : nil
            }
            guard index < segments.count, component ~= segments[index] else { return nil }
            rank.append(component == segments[index] ? 0 : 1)
        }
        return components.count == segments.count ? rank : nil
    }
}
