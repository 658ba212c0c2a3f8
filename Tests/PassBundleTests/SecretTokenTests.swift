import PassCrypto
import Testing

@Suite("Secret tokens")
struct SecretTokenTests {
    @Test func randomTokensAreLettersAndDigitsOfTheLengthAsked() {
        let tokens = (0..<200).map { _ in SecretToken.random(length: 32) }
        #expect(tokens.allSatisfy { $0.utf8.count == 32 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
        #expect(Set(tokens).count == tokens.count)
        #expect(SecretToken.random(length: 0) == "")
        // Over 200 × 32 characters every one of the 62 shows up.
        #expect(Set(tokens.joined()).count == 62)
    }

    @Test func constantTimeComparisonIsEquality() {
        #expect(SecretToken.constantTimeEqual("abc", "abc"))
        #expect(SecretToken.constantTimeEqual("Bearer abc".dropFirst(7), "abc"))
        #expect(!SecretToken.constantTimeEqual("abc", "abd"))
        #expect(!SecretToken.constantTimeEqual("abc", "abcd"))
        #expect(!SecretToken.constantTimeEqual("", "a"))
        #expect(SecretToken.constantTimeEqual("", ""))
        // Lengths 256 (or any multiple of it) bytes apart, the longer one's extra bytes NULs.
        #expect(!SecretToken.constantTimeEqual("abc" + String(repeating: "\u{0}", count: 256), "abc"))
        #expect(!SecretToken.constantTimeEqual("", String(repeating: "\u{0}", count: 512)))
    }
}
