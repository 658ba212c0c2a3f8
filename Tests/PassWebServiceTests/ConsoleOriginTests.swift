import Foundation
import PassWebService
import Testing

/// The console's allowed `Origin` is the public URL's origin as a browser writes it.
@Suite("Console: the public URL's origin")
struct ConsoleOriginTests {
    @Test("the scheme's default port is left out, an IPv6 host keeps its brackets, case is folded", arguments: [
        ("https://passes.example.com:443/wallet", "https://passes.example.com"),
        ("https://Passes.Example.com/wallet/", "https://passes.example.com"),
        ("http://passes.example.com:80", "http://passes.example.com"),
        ("https://passes.example.com:8443/w", "https://passes.example.com:8443"),
        ("http://[::1]:8080/wallet", "http://[::1]:8080"),
        ("https://[2001:db8::1]/", "https://[2001:db8::1]"),
    ])
    func origin(url: String, expected: String) throws {
        #expect(ConsoleSessionService.origin(of: try #require(URL(string: url))) == expected)
    }
}
