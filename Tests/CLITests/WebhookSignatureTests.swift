import Foundation
import Testing
import Webhooks

/// The signature receivers check and the addresses a receiver may not have, as values.
@Suite("Webhook signature and destination")
struct WebhookSignatureTests {
    let secret = Data("whsec-0123456789abcdef".utf8)
    let body = Data(#"{"id":"7","type":"pass.updated"}"#.utf8)
    let now = Date(timeIntervalSince1970: 1_780_000_000)

    @Test("a signature verifies with its secret and body, within five minutes, among rotated values")
    func signature() {
        let header = WebhookSignature.header(body: body, secret: secret, timestamp: now)
        #expect(header.hasPrefix("t=1780000000,v1=") && header.count == "t=1780000000,v1=".count + 64)
        #expect(WebhookSignature.verify(header, body: body, secret: secret, now: now.addingTimeInterval(299)))
        #expect(!WebhookSignature.verify(header, body: body, secret: secret, now: now.addingTimeInterval(301)))
        #expect(!WebhookSignature.verify(header, body: body + Data(" ".utf8), secret: secret, now: now))
        #expect(!WebhookSignature.verify(header, body: body, secret: Data("another-secret-000000".utf8), now: now))
        let old = WebhookSignature.header(body: body, secret: Data("previous-secret-00000".utf8), timestamp: now)
        let rotated = header + "," + old.split(separator: ",")[1]
        #expect(WebhookSignature.verify(rotated, body: body, secret: secret, now: now))
        #expect(!WebhookSignature.verify("v1=" + String(header.suffix(64)), body: body, secret: secret, now: now))
    }

    @Test("loopback, private, shared, link-local, unique-local and multicast addresses are not public")
    func addresses() throws {
        for url in ["https://127.0.0.2/", "https://10.0.0.1/", "https://172.31.255.255/", "https://192.168.1.1/",
                    "https://100.64.0.1/", "https://169.254.169.254/", "https://0.0.0.0/", "https://224.0.0.1/",
                    "https://[::1]/", "https://[fe80::1]/", "https://[fd00::1]/", "https://[::ffff:10.0.0.1]/",
                    "https://[ff02::1]/", "https://[::a00:1]/", "https://[64:ff9b::a9fe:a9fe]/",
                    "https://[64:ff9b:1::1]/", "https://[2002:a00:1::1]/", "https://[2001:0:4136:e378::1]/",
                    "https://[fec0::1]/"] {
            let destination = try WebhookDestination(url, allowPrivate: false)
            #expect(throws: WebhookDestination.Refusal.self, "\(url)") { try destination.checkAddresses() }
        }
        for url in ["https://8.8.8.8/", "https://172.32.0.1/", "https://[2606:4700::1111]/", "https://[64:ff9b::808:808]/",
                    "https://[2002:808:808::1]/"] {
            #expect(throws: Never.self, "\(url)") { try WebhookDestination(url, allowPrivate: false).checkAddresses() }
        }
        #expect(throws: WebhookDestination.Refusal.self) { try WebhookDestination("https://user:pw@example.com/", allowPrivate: false) }
        #expect(throws: Never.self) { try WebhookDestination("http://127.0.0.1:9/", allowPrivate: true).checkAddresses() }
    }
}
