import Checkout
import Foundation
import GoogleWallet
import PassBundle
import PassCrypto
import PassWebService
import TesseraServer
import TesseraTestSupport

/// The composed server the OpenAPI tests run: SQLite in `folder`, the shipped pass and order templates, development
/// Pass Type ID and Order Type ID (`order.com.example.shop`) certificates, the issuer API on, `merchant` if given, and
/// Google Wallet against `google`'s stand-in (callbacks verified with Tink's test keys) if given.
func openAPIServerConfiguration(folder: URL, merchant: MerchantConfiguration? = nil, google: GoogleWalletStandIn? = nil) throws
    -> ServerConfiguration
{
    let chain = try TestChain()
    let signer = try PassSigner(credentials: try PassCredentials.load(
        certificatePath: chain.path("pass.pem"), keyPath: chain.path("pass.key"), keyPassword: nil,
        wwdrPath: chain.path("wwdr.pem")))
    let orderCertificate = try chain.orderTypeCertificate(
        orderTypeIdentifier: "order.com.example.shop", teamIdentifier: "TESSERA123")
    let orderSigner = try OrderSigner(credentials: try PassCredentials(
        certificate: orderCertificate.certificate, privateKey: orderCertificate.key, wwdr: chain.chain.wwdr))
    var configuration = ServerConfiguration(
        host: "127.0.0.1", port: 0, publicURL: URL(string: "https://passes.example.test")!,
        database: .sqlite(path: folder.appendingPathComponent("tessera.sqlite").path),
        templatesDirectory: Subprocess.repositoryRoot.appendingPathComponent("PassTemplates"), signer: signer,
        orders: .init(
            templatesDirectory: Subprocess.repositoryRoot.appendingPathComponent("OrderTemplates"), signer: orderSigner),
        webService: .init(adminToken: WebServiceFixture.adminToken), merchant: merchant)
    if let google {
        let keys = folder.appendingPathComponent("google-callback-keys.json")
        try TinkTestKeys.keysDocument(nowMillis: Int64(Date().timeIntervalSince1970 * 1000)).write(to: keys)
        var settings = GoogleWalletSync.Configuration(
            issuerId: openAPIGoogleIssuerId, account: try GoogleServiceAccount(contentsOf: google.serviceAccountFile),
            client: .init(baseURL: URL(string: google.baseURL)!), publicURL: URL(string: "https://passes.example.test")!)
        settings.callbackKeys = keys.path
        configuration.google = settings
    }
    return configuration
}

/// The Google Wallet issuer id of the OpenAPI tests' server.
let openAPIGoogleIssuerId = "3388000000055555555"
