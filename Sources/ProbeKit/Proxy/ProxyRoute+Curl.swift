import Curl

extension ProxyRoute {
    /// The options that make libcurl take exactly this route, and no other.
    ///
    /// `CURLOPT_PROXY` is the proxy's URL without credentials (or `""` for direct),
    /// `CURLOPT_PROXYTYPE` its scheme, `CURLOPT_PROXYUSERNAME`/`CURLOPT_PROXYPASSWORD` its
    /// decoded credentials (so a password never travels inside a URL), and `CURLOPT_NOPROXY` is
    /// `""`: the route is already decided, libcurl must not apply `no_proxy` again.
    public var curlOptions: [EasyOption] { curlOptions(authentication: .basic) }

    /// The route's options, with `CURLOPT_PROXYAUTH` for the scheme given when the proxy has
    /// credentials.
    ///
    /// - Parameter authentication: The scheme to answer a 407 with.
    public func curlOptions(authentication: ProxyAuthentication) -> [EasyOption] {
        guard let server else { return [.proxy(""), .noProxy("")] }
        var options: [EasyOption] = [
            .proxy(server.url), .proxyType(server.scheme == .https ? .https : .http), .noProxy(""),
        ]
        if let credentials = server.credentials {
            options.append(.proxyUsername(credentials.user))
            options.append(.proxyPassword(credentials.password ?? ""))
            if authentication != .basic { options.append(.proxyAuth(authentication.curlSchemes)) }
        }
        return options
    }
}
