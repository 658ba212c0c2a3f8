import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import TesseraTestSupport

extension CheckoutFixture {
    /// What one authorization of ``authorizePairs(bases:sessions:)`` was answered.
    struct PairAnswer: CustomStringConvertible {
        let session: String
        let status: Int
        /// The error code of a refusal.
        let code: String?
        /// The order of an approval.
        let orderId: String?

        var description: String { "\(session): \(status) \(code ?? orderId ?? "")" }
    }

    /// The Apple Pay `applicationData` that ties a token to a checkout session.
    static func applicationData(_ id: String) -> Data { Data("tessera-checkout-session:\(id)".utf8) }

    /// Fires two authorizations of 48.71, each with its own valid token, at every session at once, over real sockets,
    /// and returns every answer.
    /// - Parameters:
    ///   - bases: The servers (`http://127.0.0.1:<port>`); with two, each session's pair is split between them.
    ///   - sessions: The sessions to pay.
    func authorizePairs(bases: [String], sessions: [String]) async throws -> [PairAnswer] {
        var payments: [(String, String, Data)] = []
        for id in sessions {
            for attempt in 0..<2 {
                payments.append((id, bases[attempt % bases.count],
                                 try payment(minorUnits: 4871, applicationData: Self.applicationData(id), shippingContact: CheckoutFixture.ticketContact)))
            }
        }
        // Every attempt on a connection of its own, all at once: the default pool (8 connections per host) would queue
        // most of them, serialising the race this exercises, and time out the queued ones on a loaded machine
        // (`getConnectionFromPoolTimeout`) while the server is still answering the first.
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: payments.count)
        configuration.timeout = .init(connect: .seconds(Int64(TestTime.wholeSeconds(10))), read: .seconds(60))
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let answers = try await withThrowingTaskGroup(of: PairAnswer.self) { group in
                for (id, base, payment) in payments {
                    group.addTask {
                        var request = HTTPClientRequest(url: "\(base)/checkout/v1/sessions/\(id)/authorize")
                        request.method = .POST
                        request.headers.add(name: "Content-Type", value: "application/json")
                        request.headers.add(name: "Authorization", value: "Bearer \(CheckoutFixture.apiKey)")
                        request.body = .bytes(ByteBuffer(bytes: payment))
                        let response = try await http.execute(request, timeout: .seconds(60))
                        let body = try await response.body.collect(upTo: 1 << 20)
                        let object = try? JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any]
                        return PairAnswer(session: id, status: Int(response.status.code),
                                          code: object?["code"] as? String, orderId: object?["orderId"] as? String)
                    }
                }
                return try await group.reduce(into: [PairAnswer]()) { $0.append($1) }
            }
            try await http.shutdown()
            return answers
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    /// One authorization over a connection of its own that waits up to two minutes (scaled on a loaded machine) for
    /// its answer: for a request a test holds on purpose (at the processor, while recovery runs), longer than the
    /// test client's ``LiveTestClient/readTimeout``.
    /// - Parameters:
    ///   - base: The server (`http://127.0.0.1:<port>`).
    ///   - session: The session to pay.
    ///   - payment: The payment body.
    /// - Returns: The status and the body.
    func authorizeWaitingLong(base: String, session: String, payment: Data) async throws -> (status: Int, body: Data) {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(Int64(TestTime.wholeSeconds(10))),
                                      read: .seconds(Int64(TestTime.wholeSeconds(120))))
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            var request = HTTPClientRequest(url: "\(base)/checkout/v1/sessions/\(session)/authorize")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "Authorization", value: "Bearer \(CheckoutFixture.apiKey)")
            request.body = .bytes(ByteBuffer(bytes: payment))
            let response = try await http.execute(request, timeout: .seconds(Int64(TestTime.wholeSeconds(120))))
            let body = try await response.body.collect(upTo: 1 << 20)
            try await http.shutdown()
            return (Int(response.status.code), Data(body.readableBytesView))
        } catch {
            try? await http.shutdown()
            throw error
        }
    }
}
