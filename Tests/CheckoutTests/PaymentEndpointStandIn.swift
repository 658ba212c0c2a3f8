import Crypto
import Foundation
import Hummingbird
import HTTPTypes
import NIOCore
import Synchronization
import TesseraTestSupport

/// A merchant's payment endpoint on loopback: checks each request's `Tessera-Signature` with its own HMAC, counts
/// calls per idempotency key, and answers approved (or 503 or slowly for the first calls, or declined, when told to).
/// Like a real processor, it answers a repeated idempotency key with the decision it gave the key before, so a retry
/// of a declined charge (a slow answer the server timed out on) is declined again, never charged: one charge is one
/// idempotency key (``keys``), however many calls carried it.
///
/// ``serve(_:)`` runs it on a thread and event loop of its own, so the server it answers (in this process or another)
/// never waits for it behind the suite's other work. ``holdAnswers()`` keeps calls unanswered until
/// ``releaseAnswers()``, for a test that acts while a call is with the processor.
final class PaymentEndpointStandIn: Sendable {
    struct Call: Sendable {
        var idempotencyKey: String
        var body: [String: String]
        var hasPaymentData: Bool
        var hasToken: Bool
        var accountNumber: String?
        /// The `cardPayment` object's string members, for a card paid on the sheet's payment step.
        var cardPayment: [String: String]? = nil
        var signatureValid: Bool
    }

    private struct State {
        var calls: [Call] = []
        var unavailableLeft: Int
        var slowLeft: Int
        var declinesLeft = 0
        /// The answer given to each idempotency key, once approved or declined.
        var decisions: [String: String] = [:]
        /// Whether calls wait for ``releaseAnswers()`` before they are answered.
        var holding = false
        /// The calls waiting for ``releaseAnswers()``.
        var held: [CheckedContinuation<Void, Never>] = []
        /// Waiting for a number of calls to have arrived.
        var callWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    let secret: Data
    let decline: Bool
    let delay: Duration
    /// How long a slow answer takes (longer than the processor's timeout in the tests that use it).
    let slowDelay: Duration
    private let state: Mutex<State>
    /// Runs when a call arrives, before it is answered (a test kills the server here).
    let onCall = Mutex<(@Sendable () -> Void)?>(nil)
    /// The executor it is served on (its loop's timer paces the answers), while ``serve(_:)`` runs.
    private let executor = Mutex<EventLoopExecutor?>(nil)

    init(unavailableFirst: Int = 0, slowFirst: Int = 0, decline: Bool = false, delay: Duration = .milliseconds(20),
         slowDelay: Duration = .seconds(12)) {
        self.slowDelay = slowDelay
        secret = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedData()
        self.decline = decline
        self.delay = delay
        state = Mutex(State(unavailableLeft: unavailableFirst, slowLeft: slowFirst))
    }

    var calls: [Call] { state.withLock { $0.calls } }

    /// The distinct idempotency keys it was called with, in the order first seen: the charges a gateway would make
    /// (a retried call with the same key is the same charge).
    var keys: [String] {
        var seen: Set<String> = []
        return calls.map(\.idempotencyKey).filter { seen.insert($0).inserted }
    }

    /// The distinct keys it was called with for one checkout session (`<session id>-<n>`).
    /// - Parameter session: The session's id.
    /// - Returns: Its keys, in the order first seen.
    func keys(ofSession session: String) -> [String] {
        keys.filter { $0.hasPrefix("\(session)-") }
    }

    /// Declines the next `count` calls that it answers (a buyer's card refused), then approves again.
    func declineNext(_ count: Int) {
        state.withLock { $0.declinesLeft = count }
    }

    /// From now on, calls are recorded but not answered until ``releaseAnswers()`` (a processor slow to answer, for
    /// as long as the test needs).
    func holdAnswers() {
        state.withLock { $0.holding = true }
    }

    /// Answers new calls again; the calls held so far stay held until ``releaseAnswers()``.
    func stopHolding() {
        state.withLock { $0.holding = false }
    }

    /// Answers every held call and stops holding.
    func releaseAnswers() {
        let held = state.withLock { state in
            state.holding = false
            defer { state.held = [] }
            return state.held
        }
        for call in held { call.resume() }
    }

    /// Waits until `count` calls have arrived in all, or the time limit passes.
    /// - Parameters:
    ///   - count: How many calls.
    ///   - seconds: The limit, for a quiet machine (scaled by ``TestTime``).
    /// - Returns: Whether they arrived in time.
    func waitForCalls(_ count: Int, within seconds: Double = 10) async throws -> Bool {
        let waiting = Task {
            await withCheckedContinuation { continuation in
                let arrived = state.withLock { state in
                    if state.calls.count >= count { return true }
                    state.callWaiters.append((count, continuation))
                    return false
                }
                if arrived { continuation.resume() }
            }
        }
        _ = try? await withTimeLimit(TestTime.seconds(seconds), "\(count) processor calls") { await waiting.value }
        return calls.count >= count
    }

    /// Runs the endpoint on `127.0.0.1` (a free port) on a thread of its own for as long as `body` runs.
    /// - Parameter body: The test, given the endpoint's port.
    /// - Returns: What `body` returns.
    func serve<T: Sendable>(_ body: @escaping @Sendable (_ port: Int) async throws -> T) async throws -> T {
        defer { executor.withLock { $0 = nil } }
        return try await EventLoopExecutor.serve({ executor, onServerRunning in
            self.executor.withLock { $0 = executor }
            return Application(
                router: router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: onServerRunning, eventLoopGroupProvider: .shared(executor.eventLoopGroup))
        }) { port in
            // Calls still held (a server killed while it waited) are answered into closed connections.
            defer { releaseAnswers() }
            return try await body(port)
        }
    }

    private func pause(_ duration: Duration) async throws {
        if let executor = executor.withLock({ $0 }) {
            try await executor.sleep(for: duration)
        } else {
            try await Task.sleep(for: duration)
        }
    }

    /// The endpoint's router: `POST /pay`.
    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.post("pay") { request, _ -> Response in
            var request = request
            let body = Data((try await request.collectBody(upTo: 1 << 20)).readableBytesView)
            let key = request.headers[HTTPField.Name("Idempotency-Key")!] ?? ""
            let valid = self.verify(request.headers[HTTPField.Name("Tessera-Signature")!] ?? "", body: body)
            let object = (try? JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:]
            var strings: [String: String] = [:]
            for (name, value) in object { if let text = value as? String { strings[name] = text } }
            let paymentData = object["paymentData"] as? [String: Any]
            let call = Call(idempotencyKey: key, body: strings, hasPaymentData: paymentData != nil,
                            hasToken: object["token"] != nil,
                            accountNumber: paymentData?["applicationPrimaryAccountNumber"] as? String,
                            cardPayment: (object["cardPayment"] as? [String: Any])?.compactMapValues { $0 as? String },
                            signatureValid: valid)
            let (unavailable, arrived) = self.state.withLock { state in
                state.calls.append(call)
                let count = state.calls.count
                let arrived = state.callWaiters.filter { $0.count <= count }.map(\.continuation)
                state.callWaiters.removeAll { $0.count <= count }
                if state.unavailableLeft > 0 { state.unavailableLeft -= 1; return (true, arrived) }
                return (false, arrived)
            }
            for waiter in arrived { waiter.resume() }
            self.onCall.withLock { $0 }?()
            await withCheckedContinuation { continuation in
                let hold = self.state.withLock { state in
                    if state.holding { state.held.append(continuation) }
                    return state.holding
                }
                if !hold { continuation.resume() }
            }
            let slow = self.state.withLock { state in
                if state.slowLeft > 0 { state.slowLeft -= 1; return true }
                return false
            }
            try await self.pause(slow ? self.slowDelay : self.delay)
            if unavailable { return Response(status: .serviceUnavailable) }
            guard valid else { return Response(status: .unauthorized) }
            let answer = self.state.withLock { state in
                if let decided = state.decisions[key] { return decided }
                let declineThis = state.declinesLeft > 0
                if declineThis { state.declinesLeft -= 1 }
                let answer = self.decline || declineThis ? #"{"status":"declined","reason":"Insufficient funds."}"#
                    : #"{"status":"approved","reference":"gw-\#(key)"}"#
                state.decisions[key] = answer
                return answer
            }
            return Response(status: .ok, headers: [.contentType: "application/json"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: answer)))
        }
        return router
    }

    /// Checks `t=<seconds>,v1=<hex>` the way the documentation tells merchants to: HMAC-SHA256 over
    /// `<t>.<body>`, compared in constant time, the timestamp within five minutes.
    func verify(_ header: String, body: Data) -> Bool {
        var parts: [String: String] = [:]
        for item in header.split(separator: ",") {
            let pair = item.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { parts[String(pair[0])] = String(pair[1]) }
        }
        guard let t = parts["t"], let seconds = Double(t), abs(Date().timeIntervalSince1970 - seconds) < 300,
              let v1 = parts["v1"] else { return false }
        var signed = Data("\(t).".utf8)
        signed.append(body)
        let expected = HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: secret))
        let given = stride(from: 0, to: v1.count - 1, by: 2).compactMap { index -> UInt8? in
            let start = v1.index(v1.startIndex, offsetBy: index)
            return UInt8(v1[start..<v1.index(start, offsetBy: 2)], radix: 16)
        }
        return given.count == 32 && HMAC<SHA256>.isValidAuthenticationCode(given, authenticating: signed,
                                                                             using: SymmetricKey(data: secret))
            && Data(expected) == Data(given)
    }
}
