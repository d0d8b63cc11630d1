# Covers: the smallest accepted file, a single FROM.
FROM scratch
