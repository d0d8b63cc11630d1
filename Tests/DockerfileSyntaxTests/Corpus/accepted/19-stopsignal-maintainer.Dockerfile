# Covers: STOPSIGNAL and the deprecated MAINTAINER (whole rest of line is one value).
FROM alpine
STOPSIGNAL SIGTERM
STOPSIGNAL 9
STOPSIGNAL ${SIG}
MAINTAINER Jane Doe <jane@example.com>
MAINTAINER   "quoted name"   
