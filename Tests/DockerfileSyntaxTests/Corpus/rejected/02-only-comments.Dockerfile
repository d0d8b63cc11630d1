# Covers: a file with only comments and blank lines has no instructions.

# another comment
   # indented

