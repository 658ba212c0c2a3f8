import Foundation
import Testing
import TesseraTestSupport

/// A clone without `../shared/applepay-vectors` still passes: the tests that read the vectors are skipped and say
/// why. Checked by running this test binary again on the vector suites with the folder pointed somewhere empty.
@Suite("Apple Pay vectors folder")
struct VectorAvailabilityTests {
    /// This test process's own executable (the package's test binary).
    private static var testBinary: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    private static func runVectorSuites(vectors: String) async throws -> ProcessResult {
        try await Subprocess.run(testBinary, [
            "--testing-library", "swift-testing", "--filter", "KnownAnswerTests|PayDecryptCLITests|TamperingTests",
        ], environment: ["TESSERA_APPLEPAY_VECTORS": vectors])
    }

    @Test("without the folder the vector tests are skipped with the reason, and the run passes")
    func skippedWithReasonWhenAbsent() async throws {
        let empty = try TemporaryDirectory.make(prefix: "no-vectors")
        let result = try await Self.runVectorSuites(vectors: empty.appendingPathComponent("applepay-vectors").path)
        let output = result.stdout + result.stderr
        #expect(result.status == 0, "\(output.suffix(3000))")
        #expect(output.contains("skipped"), "\(output.suffix(3000))")
        #expect(output.contains("the public Apple Pay token vectors are not at"), "\(output.suffix(3000))")
        #expect(!output.contains("failed"), "\(output.suffix(3000))")
    }

    @Test("with the folder the same tests run", .vectorsPresent)
    func runWhenPresent() async throws {
        let result = try await Self.runVectorSuites(vectors: VectorSet.root.path)
        let output = result.stdout + result.stderr
        #expect(result.status == 0, "\(output.suffix(3000))")
        #expect(!output.contains("the public Apple Pay token vectors are not at"))
        #expect(output.contains("passed"))
    }
}
