import Foundation
import HTTPTypes
import Hummingbird
import Markup
import NIOCore

/// One page of the console: the same accessible shell (skip link, navigation, a main region with the page's heading,
/// a live region for progress) that the console's script fills from the issuer API. No inline script or style: the
/// Content-Security-Policy allows this server's script and style files only.
struct ConsolePage {
    enum Kind: String, CaseIterable {
        case signIn = "sign-in", templates, passes, pass, campaigns, analytics, events, keys

        var title: String {
            switch self {
            case .signIn: "Sign in"
            case .templates: "Templates"
            case .passes: "Passes"
            case .pass: "Pass"
            case .campaigns: "Campaigns"
            case .analytics: "Analytics"
            case .events: "Webhooks and events"
            case .keys: "Certificates and keys"
            }
        }

        /// The navigation's entry this page belongs to.
        var section: Kind { self == .pass ? .passes : self }
    }

    let kind: Kind
    let base: String

    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        + "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    func html() -> String {
        let navigation = Kind.allCases.filter { $0 != .signIn && $0 != .pass }.map { item in
            let current = item == kind.section ? #" aria-current="page""# : ""
            return #"<li><a href="\#(MarkupText.html(base))/console/\#(item.rawValue)"\#(current)>\#(item.title)</a></li>"#
        }.joined()
        let header = kind == .signIn ? """
            <header class="top"><p class="brand">Tessera console</p></header>
            """ : """
            <header class="top">
              <p class="brand"><a href="\(MarkupText.html(base))/console/templates">Tessera console</a></p>
              <nav aria-label="Console"><ul>\(navigation)</ul></nav>
              <div class="who"><span id="signed-in-as"></span>
                <button type="button" id="sign-out" class="secondary">Sign out</button></div>
            </header>
            """
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(kind.title) · Tessera console</title>
            <link rel="icon" href="data:,">
            <link rel="stylesheet" href="\(MarkupText.html(base))/console/assets/console.css">
            <script defer src="\(MarkupText.html(base))/console/assets/console.js"></script>
            </head>
            <body data-page="\(kind.rawValue)" data-base="\(MarkupText.html(base))">
            <a class="skip" href="#main">Skip to content</a>
            \(header)
            <main id="main" tabindex="-1">
              <h1 id="page-title">\(kind.title)</h1>
              <div id="content"><p class="muted">Loading…</p></div>
            </main>
            <div id="status" class="visually-hidden" role="status" aria-live="polite"></div>
            <noscript><p class="problem">The console needs JavaScript: it draws each page from the issuer API.</p></noscript>
            </body>
            </html>
            """
    }

    func response() -> Response {
        Response(status: .ok, headers: [
            .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
            .contentSecurityPolicy: Self.contentSecurityPolicy,
            HTTPField.Name("X-Content-Type-Options")!: "nosniff", HTTPField.Name("Referrer-Policy")!: "no-referrer",
            HTTPField.Name("X-Frame-Options")!: "DENY",
        ], body: .init(byteBuffer: ByteBuffer(string: html())))
    }
}
