"""yipan's version: one place, read by the package, the engines' ``about`` lines and the build."""

VERSION = "0.1.0"
