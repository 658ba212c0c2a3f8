import Barcodes
import Foundation
import HTTPTypes
import Hummingbird
import Markup
import NIOCore
import PassModel
import PassStore
import PassWebService

/// `GET /p/{downloadToken}`: the page a holder opens from an e-mail. On an iPhone it offers the `.pkpass`, on Android
/// the "Save to Google Wallet" link, elsewhere both, with a QR code of the page to open it on a phone. The buttons
/// are text in the wallets' own names ("Add to Apple Wallet", "Add to Google Wallet"), not borrowed artwork. No
/// script; styles inline under a Content-Security-Policy that allows nothing else.
struct HolderPage: Sendable {
    let issuer: PassIssuer
    let google: (any GoogleWalletLinking)?

    func add(to group: RouterGroup<WebServiceRequestContext>) {
        group.get("p/:token", use: page)
    }

    enum Device: Equatable {
        case iPhone, android, other

        init(userAgent: String) {
            if userAgent.contains("iPhone") || userAgent.contains("iPad") || userAgent.contains("iPod") {
                self = .iPhone
            } else if userAgent.contains("Android") {
                self = .android
            } else {
                self = .other
            }
        }
    }

    @Sendable func page(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        let token = context.parameters.get("token") ?? ""
        guard let pass = try await issuer.item(downloadToken: token) else {
            return Self.html(.notFound, Self.document(title: "Pass not found", body: """
                <h1>Pass not found</h1><p>This link does not lead to a pass. Ask its sender for a new one.</p>
                """))
        }
        let device = Device(userAgent: request.headers[.userAgent] ?? "")
        let content = try? await issuer.currentPass(of: pass)
        let strings = content.flatMap { Self.strings(of: $0.template) } ?? [:]
        let title = content?.pass.description.map { strings[$0] ?? $0 } ?? pass.serialNumber
        let organization = content?.pass.organizationName.map { strings[$0] ?? $0 } ?? ""
        let apple = issuer.downloadURL(for: pass)
        // Made only where the page offers it (not on an iPhone): the save link is signed, and its state read, each time.
        let googleURL = device == .iPhone ? nil : await google?.googleState(of: pass)?.saveURL
        var buttons: [String] = []
        if device != .android || googleURL == nil {
            buttons.append(#"<a class="wallet" id="apple-wallet" href="\#(MarkupText.html(apple))">Add to Apple Wallet</a>"#)
        }
        if let googleURL, device != .iPhone {
            buttons.append(#"<a class="wallet" id="google-wallet" href="\#(MarkupText.html(googleURL))">Add to Google Wallet</a>"#)
        }
        var body = """
            <h1>\(MarkupText.html(title))</h1>
            <p class="issuer">\(MarkupText.html(organization))</p>
            <nav aria-label="Add to a wallet">\(buttons.joined())</nav>
            """
        if device == .other {
            let pageURL = issuer.webServiceURL + "/p/" + token
            if let svg = try? BarcodeRenderer.render(Barcode(format: .qr, message: pageURL, messageEncoding: "utf-8")).svg(scale: 4) {
                body += """
                    <figure><div class="qr" role="img" aria-label="QR code of this page">\(svg)</div>
                    <figcaption>Scan with your phone's camera to add the pass there.</figcaption></figure>
                    """
            }
        }
        return Self.html(.ok, Self.document(title: "\(organization.isEmpty ? "" : organization + ": ")\(title)", body: body))
    }

    /// The template's English strings (or its first language's), so the page reads as the pass does.
    static func strings(of template: PassTemplate) -> [String: String]? {
        let tables = template.files.filter { $0.key.hasSuffix(".lproj/pass.strings") && !$0.key.dropLast(17).contains("/") }
        guard let (path, data) = tables["en.lproj/pass.strings"].map({ ("en.lproj/pass.strings", $0) })
                ?? tables.sorted(by: { $0.key < $1.key }).first.map({ ($0.key, $0.value) }) else { return nil }
        return (try? StringsFile(data: data, fileName: path))?.entries
    }

    static let style = """
        body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f4f4f6;color:#111}
        main{max-width:28rem;margin:0 auto;padding:2rem 1.25rem}h1{font-size:1.5rem;margin:0 0 .25rem}
        .issuer{color:#444;margin:0 0 1.5rem}nav{display:flex;flex-direction:column;gap:.75rem}
        .wallet{display:block;text-align:center;padding:.9rem 1rem;border-radius:.6rem;background:#000;color:#fff;
        font-weight:600;text-decoration:none}.wallet:focus{outline:3px solid #1a73e8;outline-offset:2px}
        figure{margin:2rem 0 0;text-align:center}.qr svg{width:12rem;height:auto;background:#fff;padding:.5rem}
        figcaption{color:#444;font-size:.9rem;margin-top:.5rem}
        """

    static func document(title: String, body: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(MarkupText.html(title))</title><style>\(style)</style></head>
        <body><main>\(body)</main></body></html>
        """
    }

    static func html(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [
            .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
            .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
            .vary: "User-Agent", HTTPField.Name("X-Content-Type-Options")!: "nosniff",
            // The page's address carries the pass's download token: never sent on to the wallets it links to.
            HTTPField.Name("Referrer-Policy")!: "no-referrer",
        ], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
