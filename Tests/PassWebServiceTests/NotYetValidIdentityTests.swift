import Foundation
import HTTPTypes
import PassBundle
import PassStore
import PassWebService
import Synchronization
import TesseraTestSupport
import Testing

/// A certificate whose validity has not begun at the server's clock (issued with a start ahead, or a clock behind)
/// signs nothing: Wallet refuses a signature made outside the signer's validity.
@Suite struct NotYetValidIdentityTests {
    @Test("an identity not valid yet at the server's clock refuses new passes and changes with 503, then signs once it is")
    func notValidYet() async throws {
        let start = Date(timeIntervalSince1970: 1_790_000_000)  // 2026-09-21
        let chain = try TestChain(validFrom: start.addingTimeInterval(86_400))
        let signer = try PassSigner(credentials: try PassCredentials.load(
            certificatePath: chain.path("pass.pem"), keyPath: chain.path("pass.key"), keyPassword: nil,
            wwdrPath: chain.path("wwdr.pem")))
        let clock = Mutex(start)
        let issuer = PassIssuer(
            store: MemoryPassStore(), signer: signer,
            configuration: .init(
                templatesDirectory: Subprocess.repositoryRoot.appendingPathComponent("PassTemplates"),
                publicURL: WebServiceFixture.publicURL),
            now: { clock.withLock { $0 } })

        let refused = await #expect(throws: IssuerError.self) {
            try await issuer.createPass(template: "event-ticket", data: [:])
        }
        #expect(refused?.code == .signingUnavailable && refused?.status == .serviceUnavailable)
        #expect(refused?.description.contains("not valid until 2026-09-22") == true, "\(refused?.description ?? "")")

        clock.withLock { $0 = start.addingTimeInterval(2 * 86_400) }
        let pass = try await issuer.createPass(template: "event-ticket", data: [:])
        #expect(pass.passTypeIdentifier == "pass.dev.tessera.demo")
    }
}
