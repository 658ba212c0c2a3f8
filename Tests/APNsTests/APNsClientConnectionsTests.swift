@testable import APNs
import Foundation
import TesseraTestSupport
import Testing

@Suite("APNs pushes over several connections (through the HTTP/2 stand-in)")
struct APNsClientConnectionsTests {
    static func authentication(_: TestServerCertificates) throws -> APNsClient.Configuration.Authentication {
        try StandInFixture.tokenAuthentication().0
    }

    static func tokens(_ range: Range<Int>) -> [String] { range.map { String(format: "%064x", $0) } }

    @Test("pushes sent one after another keep to the first connection; the others are never opened")
    func quietClientKeepsOne() async throws {
        try await StandInFixture.with(authentication: Self.authentication, configure: { $0.connections = 4 }) { standIn, client in
            for token in Self.tokens(0..<5) {
                let result = try await client.send(pushToken: token, topic: StandInFixture.topic)
                #expect({ if case .delivered = result { true } else { false } }(), "\(result)")
            }
            #expect(standIn.requests.count == 5)
            #expect(standIn.connections == 1)
            #expect(Set(standIn.requests.map(\.connection)) == [1])
        }
    }

    @Test("pushes waiting for answers on one connection go to the next, up to the limit, then to the least busy")
    func busyConnectionsSpread() async throws {
        try await StandInFixture.with(
            authentication: Self.authentication,
            configure: { $0.connections = 3; $0.requestTimeout = TestTime.seconds(30) }
        ) { standIn, client in
            // Every answer held back until all four groups were sent, so each group of pushes is still unanswered when
            // the next is sent, however slow the machine.
            for _ in 0..<80 { standIn.enqueue(.held) }
            var sends: [Task<[APNsResult], any Error>] = []
            for group in 0..<4 {
                let tokens = Self.tokens(group * 20..<(group + 1) * 20)
                sends.append(Task { try await client.send(pushTokens: tokens, topic: StandInFixture.topic) })
                // The group has reached the stand-in (and waits for its answers) before the next is sent.
                let expected = (group + 1) * 20
                let arrived = try await standIn.requests(topic: StandInFixture.topic, within: TestTime.seconds(20)) {
                    $0.count >= expected
                }
                #expect(arrived.count == expected)
            }
            standIn.releaseHeld()
            for send in sends {
                let results = try await send.value
                #expect(results.allSatisfy { if case .delivered = $0 { true } else { false } }, "\(results)")
            }
            // Never more connections than allowed; the first three groups each on a connection of its own, the
            // fourth on one of them.
            #expect(standIn.connections == 3)
            let byToken = Dictionary(standIn.requests.compactMap { request in request.pushToken.map { ($0, request.connection) } }) { $1 }
            let groups = (0..<4).map { group in Set(Self.tokens(group * 20..<(group + 1) * 20).compactMap { byToken[$0] }) }
            #expect(groups.allSatisfy { $0.count == 1 }, "each group of pushes goes out on one connection: \(groups)")
            #expect(Set(groups[0..<3].flatMap { $0 }) == [1, 2, 3], "\(groups)")
            #expect(groups[3].isSubset(of: [1, 2, 3]))
        }
    }

    @Test("the number of connections is kept within 1...32")
    func connectionsClamped() throws {
        let key = try StandInFixture.tokenAuthentication().0
        var configuration = APNsClient.Configuration(host: "localhost", authentication: key, connections: 0)
        #expect(configuration.effectiveConnections == 1)
        #expect(try APNsClient(configuration: configuration, logger: StandInFixture.logger).connections.count == 1)
        configuration.connections = 500
        #expect(configuration.effectiveConnections == APNsClient.Configuration.maximumConnections)
        configuration.connections = 4
        #expect(try APNsClient(configuration: configuration, logger: StandInFixture.logger).connections.count == 4)
    }
}
