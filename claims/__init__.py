"""Claim rows, bindings of claimed numbers to logged runs, and table consistency checks."""
