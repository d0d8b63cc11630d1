import Foundation
import JSONReader
import Serialization

extension RegistryCredentialStore.Layer {
    /// Reads an auth file: Docker's `config.json` or the containers tools' `auth.json` (the
    /// same shape): `auths` (per key, `auth`: the base64 of `USER:PASS`), `credHelpers` (per
    /// key, a helper's name) and `credsStore` (a helper for every other host). Other members
    /// (`HttpHeaders`, `proxies`, …) are not credentials and are left alone.
    ///
    /// - Parameters:
    ///   - bytes: The file's content.
    ///   - origin: The file as messages show it.
    /// - Throws: `RegistryCredentialError` for text that is not a JSON object, an `auth` that is
    ///   not base64 of `USER:PASS`, or an entry that holds only an `identitytoken` (an OAuth
    ///   refresh token from a browser login, which a registry's Basic or token service does not
    ///   take as a password): never with the secret itself.
    public init(authFile bytes: [UInt8], origin: String) throws(RegistryCredentialError) {
        let document: JSONValue
        do {
            document = try JSONDocument.parse(bytes)
        } catch {
            throw RegistryCredentialError(
                "\(origin):\(error.line):\(error.column): not an auth file: \(error.messageWithoutText) (the text there is not quoted: it may hold a secret)"
            )
        }
        guard document.members != nil else {
            throw RegistryCredentialError("\(origin): not an auth file: a JSON \(document.typeName), not an object")
        }
        var entries: [RegistryCredentialStore.Entry] = []
        for (key, value) in document[member: "credHelpers"]?.members ?? [] {
            guard let helper = value.stringValue, Self.isHelperName(helper) else {
                throw RegistryCredentialError("\(origin): credHelpers.\(key) is no credential helper name")
            }
            entries.append(.init(scope: key, source: .helper(helper), origin: origin))
        }
        var defaultHelper: String?
        if let store = document[member: "credsStore"] {
            guard let name = store.stringValue, name.isEmpty || Self.isHelperName(name) else {
                throw RegistryCredentialError("\(origin): credsStore is no credential helper name")
            }
            defaultHelper = name.isEmpty ? nil : name
        }
        let helperScopes = Set(entries.map(\.scope))
        // With a credsStore, Docker reads no auths entry: the store holds every host's
        // credentials, and auths keeps empty markers.
        for (key, value) in defaultHelper == nil ? document[member: "auths"]?.members ?? [] : [] {
            guard value.members != nil else {
                throw RegistryCredentialError("\(origin): auths.\(key) is a JSON \(value.typeName), not an object")
            }
            guard let encoded = value[member: "auth"]?.stringValue, !encoded.isEmpty else {
                if value[member: "identitytoken"]?.stringValue?.isEmpty == false {
                    throw RegistryCredentialError(
                        "\(origin): auths.\(key) holds an identity token (a browser or SSO login), which stagebuild cannot "
                            + "send as a password; log in with a user name and password or access token, or give "
                            + "--registry-auth \(RegistryCredentialStore.scope(ofKey: key))=USER:TOKEN")
                }
                continue  // `{}`: a marker that the credsStore holds this host.
            }
            guard let decoded = Data(base64Encoded: encoded).flatMap({ String(data: $0, encoding: .utf8) }),
                let credentials = RegistryCredentials(parsing: decoded)
            else {
                throw RegistryCredentialError("\(origin): auths.\(key).auth is not the base64 of USER:PASS")
            }
            let entry = RegistryCredentialStore.Entry(scope: key, source: .credentials(credentials), origin: origin)
            // Docker asks a host's credHelpers entry first; the auths entry is then left unused.
            if !helperScopes.contains(entry.scope) { entries.append(entry) }
        }
        self.init(entries: entries, defaultHelper: defaultHelper, origin: origin)
    }

    /// A helper's name becomes part of a program name, `docker-credential-NAME`: letters,
    /// digits, `-`, `_` and `.` only, so it can never name a path.
    static func isHelperName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || "0123456789-_.".unicodeScalars.contains($0))
            }
    }
}
