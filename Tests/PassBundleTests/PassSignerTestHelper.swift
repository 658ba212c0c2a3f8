import Foundation
@testable import PassBundle

/// Access to the bundle zipper for building deliberately broken archives.
enum PassSignerTestHelper {
    static func zip(_ files: [String: Data]) throws -> Data {
        try PassSigner.zip(files)
    }
}
