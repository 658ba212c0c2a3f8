import Checkout
import Foundation
import PassBundle
import PassCrypto
import PassWebService
import TesseraServer
import TesseraTestSupport

/// The composed server the OpenAPI tests run: SQLite in `folder`, the shipped pass and order templates, development
/// Pass Type ID and Order Type ID (`order.com.example.shop`) certificates, the issuer API on, and `merchant` if given.
func openAPIServerConfiguration(folder: URL, merchant: MerchantConfiguration? = nil) throws -> ServerConfiguration {
    let chain = try TestChain()
    let signer = try PassSigner(credentials: try PassCredentials.load(
        certificatePath: chain.path("pass.pem"), keyPath: chain.path("pass.key"), keyPassword: nil,
        wwdrPath: chain.path("wwdr.pem")))
    let orderCertificate = try chain.chain.orderTypeCertificate(
        orderTypeIdentifier: "order.com.example.shop", teamIdentifier: "TESSERA123")
    let orderSigner = try OrderSigner(credentials: try PassCredentials(
        certificate: orderCertificate.certificate, privateKey: orderCertificate.key, wwdr: chain.chain.wwdr))
    return ServerConfiguration(
        host: "127.0.0.1", port: 0, publicURL: URL(string: "https://passes.example.test")!,
        database: .sqlite(path: folder.appendingPathComponent("tessera.sqlite").path),
        templatesDirectory: Subprocess.repositoryRoot.appendingPathComponent("PassTemplates"), signer: signer,
        orders: .init(
            templatesDirectory: Subprocess.repositoryRoot.appendingPathComponent("OrderTemplates"), signer: orderSigner),
        webService: .init(adminToken: WebServiceFixture.adminToken), merchant: merchant)
}
