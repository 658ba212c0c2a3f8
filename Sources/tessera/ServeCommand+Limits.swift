import PassWebService

extension ServeCommand {
    /// The web service's settings: the issuer API's admin token and the per-client limit of refused credentials
    /// (`TESSERA_ISSUER_REFUSED_CREDENTIALS_PER_MINUTE`, 20 by default, 0 for none).
    static func webService(adminToken: String?, _ environment: [String: String]) throws -> PassWebService.Configuration {
        var configuration = PassWebService.Configuration(adminToken: adminToken)
        configuration.refusedCredentialsPerMinute = try wholeNumber(
            nil, flag: "TESSERA_ISSUER_REFUSED_CREDENTIALS_PER_MINUTE", variable: "TESSERA_ISSUER_REFUSED_CREDENTIALS_PER_MINUTE",
            default: 20, range: 0...1_000_000, environment)
        return configuration
    }
}
