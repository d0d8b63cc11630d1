/// A host name the resolver refuses without sending any query: its first label is longer
/// than 63 octets (RFC 1035 section 2.3.4). Tests of "name not resolved" use it, so no DNS
/// traffic leaves the machine (a `.invalid` name alone would still be asked of the resolver).
let unresolvableHost = "no-query-is-sent-for-this-name-because-its-label-exceeds-63-octets.invalid"
