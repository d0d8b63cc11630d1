# Covers: VOLUME in JSON and plain forms.
FROM alpine
VOLUME /data
VOLUME /a /b   /c
VOLUME ["/var/log", "/var/db"]
VOLUME [ "/single" ]
VOLUME ${DATA_DIR}
VOLUME "/quoted path"
