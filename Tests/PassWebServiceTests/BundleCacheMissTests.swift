import Foundation
import PassBundle
import PassModel
import PassStore
import PassWebService
import Synchronization
import Testing
import TesseraTestSupport

/// A device fetch that misses the bundle cache loads the template and signs: file reads and CPU work that `tessera
/// serve` must keep off its event loops, where they would stop every other connection the loop serves.
@Suite("Bundle cache misses off the event loop", .serialized)
struct BundleCacheMissTests {
    @Test("a cache miss loads the template and signs off the event loop that asked: the loop runs other work meanwhile",
          arguments: [false, true])
    func cacheMissOffTheLoop(templateLoaded: Bool) async throws {
        let chain = try TestChain()
        let signer = try PassSigner(
            credentials: try PassCredentials.load(
                certificatePath: chain.path("pass.pem"), keyPath: chain.path("pass.key"), keyPassword: nil,
                wwdrPath: chain.path("wwdr.pem")))
        let store = MemoryPassStore()
        let publicURL = URL(string: "https://passes.example.test/wallet")!
        let templates = Subprocess.repositoryRoot.appendingPathComponent("PassTemplates")
        let issuer = PassIssuer(store: store, signer: signer,
                                configuration: .init(templatesDirectory: templates, publicURL: publicURL))
        let pass = try await issuer.createPass(template: "event-ticket", data: ["serialNumber": .string("CM-1")])
        // A second issuer over the same store has nothing cached; it has loaded the template, or not.
        let cold = PassIssuer(store: store, signer: signer,
                              configuration: .init(templatesDirectory: templates, publicURL: publicURL))
        if templateLoaded { _ = try cold.passTypeIdentifier(ofTemplate: "event-ticket") }

        // The fetch queues a probe on its own loop, then asks for the bundle. Done on the loop, the whole fetch
        // runs before the probe; done off it, the loop runs the probe while the fetch waits for the blocking pool,
        // held by the test until the probe ran.
        let server = EventLoopExecutor()
        let pool = try await BlockingPoolHold()
        defer { pool.release() }
        let fetchDone = Atomic<Bool>(false)
        let probeSawFetchDone = Atomic<Bool>(false)
        let probed = DispatchSemaphore(value: 0)
        let fetch = server.task {
            server.execute {
                probeSawFetchDone.store(fetchDone.load(ordering: .sequentiallyConsistent), ordering: .sequentiallyConsistent)
                probed.signal()
            }
            let bundle = try await cold.bundle(for: pass)
            fetchDone.store(true, ordering: .sequentiallyConsistent)
            return bundle
        }
        #expect(try await offCooperativePool { probed.wait(timeout: .now() + 60) == .success })
        pool.release()
        let bundle = try await fetch.value
        let archive = try PassArchive(data: bundle)
        #expect(archive.files["signature"] != nil)
        #expect(archive.files["pass.json"] != nil)
        let loopWaitedForFetch = probeSawFetchDone.load(ordering: .sequentiallyConsistent)
        #expect(!loopWaitedForFetch,
                "the event loop ran nothing while a cache miss loaded its template and signed")
        try await server.shutdown()
    }
}
