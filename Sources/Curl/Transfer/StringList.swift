import CCurl

/// An owned `struct curl_slist`, for options that take a list (`CURLOPT_HTTPHEADER`,
/// `CURLOPT_RESOLVE`). libcurl does not copy lists: the owner keeps this alive while the
/// handle may use it.
final class StringList {
    /// The head of the list, or `nil` for an empty list.
    let head: UnsafeMutablePointer<curl_slist>?

    /// Builds the list with `curl_slist_append`.
    ///
    /// - Parameter strings: the entries in order.
    /// - Throws: ``CurlError`` ``CurlCode/outOfMemory`` when `curl_slist_append` fails.
    init(_ strings: [String]) throws(CurlError) {
        var list: UnsafeMutablePointer<curl_slist>?
        for string in strings {
            guard let appended = curl_slist_append(list, string) else {
                curl_slist_free_all(list)
                throw CurlError(code: .outOfMemory, context: "curl_slist_append")
            }
            list = appended
        }
        head = list
    }

    deinit {
        curl_slist_free_all(head)
    }
}
