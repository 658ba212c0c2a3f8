import Foundation
import PassBundle
import PassCrypto
import PassModel
import Testing
import TesseraTestSupport

@Suite(".pkpasses bundles")
struct PassesBundleTests {
    let signer: PassSigner

    init() async throws {
        let chain = try TestChain()
        signer = try PassSigner(credentials: PassCredentials(certificate: chain.chain.pass, privateKey: chain.chain.passKey,
                                                             wwdr: chain.chain.wwdr))
    }

    func passes(_ count: Int) throws -> [(name: String, data: Data)] {
        let template = try PassTemplate(directory: Subprocess.repositoryRoot.appendingPathComponent("PassTemplates/event-ticket"))
        let builder = try PassBuilder(template: template, signer: signer)
        return try (1...count).map { index in
            let built = try builder.build(data: PassData(overrides: ["serialNumber": .string("T-\(index)")]))
            return ("T-\(index)", built.bundle)
        }
    }

    @Test func bundleHoldsEverySignedPassInOrder() async throws {
        let passes = try passes(3)
        let bytes = try PassesBundle(passes: passes).archive()
        let read = try PassesBundle(data: bytes)
        #expect(read.passes.map(\.name) == ["T-1.pkpass", "T-2.pkpass", "T-3.pkpass"])
        #expect(read.passes.map(\.data) == passes.map(\.data))
        for pass in read.passes {
            #expect(PassVerifier().verify(data: pass.data).wouldOpen)
        }
        #expect(PassesBundle.mediaType == "application/vnd.apple.pkpasses")
        // An independent reader sees a ZIP of .pkpass files at the root.
        let folder = try TemporaryDirectory.make(prefix: "pkpasses")
        let file = folder.appendingPathComponent("tickets.pkpasses")
        try bytes.write(to: file)
        let listing = try await Subprocess.run("python3", ["-c", "import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).namelist())", file.path])
        #expect(listing.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "['T-1.pkpass', 'T-2.pkpass', 'T-3.pkpass']")
    }

    @Test func applesLimitsAndLayoutAreChecked() async throws {
        let eleven = try passes(11)
        let tooMany = try #require(throws: PassBundleError.self) { try PassesBundle(passes: eleven) }
        #expect(tooMany.code == .invalidArchive)
        #expect(tooMany.reason == "Wallet takes at most 10 passes from one bundle; found 11")

        let one = try passes(1)[0]
        let problems = try #require(throws: PassBundleError.self) {
            try PassesBundle(passes: [one, (one.name + ".pkpass", one.data), ("notes.txt", Data("hello".utf8)),
                                      ("dir/x", one.data)])
        }
        #expect(problems.reason == """
            T-1.pkpass: two passes have this name
            notes.txt: not a .pkpass (ZIP) archive
            dir/x: an entry name must be a plain file name
            """)
        let empty = try #require(throws: PassBundleError.self) { try PassesBundle(passes: []) }
        #expect(empty.reason == "a .pkpasses bundle needs at least one pass")
        let big = try #require(throws: PassBundleError.self) {
            try PassesBundle(passes: [("a", one.data), ("b", Data(count: PassesBundle.maximumSize))])
        }
        #expect(big.reason.hasSuffix(
            "Wallet takes at most 150 MB in one bundle; these passes are \(one.data.count + PassesBundle.maximumSize) bytes"))
    }
}
