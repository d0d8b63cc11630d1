import Foundation

/// One response as a test client read it.
struct TestResponse {
    var status: Int
    var fields: [(name: String, value: String)]
    var body: [UInt8]

    func field(_ name: String) -> String? {
        fields.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    var json: [String: Any] {
        get throws {
            let object = try JSONSerialization.jsonObject(with: Data(body))
            guard let dictionary = object as? [String: Any] else { throw TestClient.Failure.malformedResponse(text) }
            return dictionary
        }
    }
}
