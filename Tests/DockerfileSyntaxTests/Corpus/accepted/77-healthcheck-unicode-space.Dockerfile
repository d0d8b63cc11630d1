# Covers: HEALTHCHECK splits its type word off at ASCII white space only (BuildKit tests single bytes): U+2028, U+3000 and an ideographic or thin space stay in the command (the JSON form after one is still read as JSON).
FROM alpine
HEALTHCHECK CMD   curl -f http://localhost/
HEALTHCHECK --interval=5s cmd 　["true"]
HEALTHCHECK CMD x y
HEALTHCHECK NONE  
