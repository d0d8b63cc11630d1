FROM alpine
# Covers: a byte-order mark before the first instruction is dropped; one on a later line is kept (and makes an unknown instruction).
RUN echo first
﻿RUN echo bom on line 4
