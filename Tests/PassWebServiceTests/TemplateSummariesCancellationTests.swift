import Foundation
import PassBundle
import PassStore
import PassWebService
import Testing
import TesseraTestSupport

/// Reading every template is the first thing a server does; stopped part way (a shutdown right after the start), the
/// reading stops without blaming a template that is fine.
@Suite("Template listing when stopped")
struct TemplateSummariesCancellationTests {
    @Test("a listing cancelled part way throws CancellationError; no template is listed as failing to load")
    func cancelledListing() async throws {
        let issuer = try WebServiceFixture.standaloneIssuer()
        let listing = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await issuer.templateSummaries()
        }
        let outcome = await listing.result
        switch outcome {
        case .success(let summaries):
            Issue.record("a cancelled listing answered \(summaries.count) templates, failing: \(summaries.compactMap(\.error))")
        case .failure(let error):
            #expect(error is CancellationError, "\(error)")
        }
        // Not cancelled, every shipped template loads.
        let summaries = try await issuer.templateSummaries()
        #expect(summaries.count >= 9)
        #expect(summaries.allSatisfy { $0.error == nil }, "\(summaries.compactMap(\.error))")
    }
}
