# spark-random-strings: every set-up step lives here, so a fresh machine needs only
# `make demo` or `make test`. Needs Java 17, Maven, Python 3.11 and pip; everything else
# (sbt, pyspark, the test tools) is installed into git-ignored folders of this tree.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
# One source of truth for each version: sbt's in project/build.properties, Spark's in build.sbt.
SBT_VERSION := $(shell sed -n 's/^sbt\.version=//p' project/build.properties)
SPARK_VERSION := $(shell sed -n 's/^val sparkVersion = "\(.*\)"/\1/p' build.sbt)
# The project's version, shared by the jar (build.sbt reads it) and the wheel (python/VERSION links to it).
VERSION := $(shell cat VERSION)

TOOLS := .tools
VENV := .venv
PY := $(VENV)/bin/python
SBT_LAUNCHER := $(TOOLS)/sbt-launch-$(SBT_VERSION).jar
VENV_READY := $(VENV)/.ready-$(SPARK_VERSION)
PACKAGE_JARS := python/src/spark_random_strings/jars
SCALA_TARGET := jvm/target/scala-2.13
DIST := dist
JAR_NAME := spark-random-strings_2.13-$(VERSION).jar
WHEEL := $(DIST)/spark_random_strings-$(VERSION)-py3-none-any.whl

# sbt resolves from the local caches and Maven Central only (project/repositories).
SBT := java -Xms512m -Xmx3g -Xss4m -Dfile.encoding=UTF-8 \
	-Dsbt.repository.config=project/repositories -Dsbt.override.build.repos=true \
	-Dsbt.server.autostart=false -Dsbt.supershell=false -Dsbt.color=false -Dsbt.ci=true \
	-jar $(SBT_LAUNCHER)
# The Spark runtime jars that the build compiles and tests against: those of the pinned pyspark.
SPARK_JARS_DIR = $$($(PY) -c 'import os, pyspark; print(os.path.join(os.path.dirname(pyspark.__file__), "jars"))')

.PHONY: help bootstrap jar wheel dist install test test-scala test-python bench soak demo clean

help:
	@echo "make demo   - set up, build the jar, install the package and stream random strings"
	@echo "make test   - set up, build, run the scalatest suites and the pytest suite"
	@echo "make jar    - build the jar and copy it into the Python package"
	@echo "make wheel  - build the jar and a wheel that bundles it, into $(DIST)/"
	@echo "make dist   - the wheel, and the plain jar for spark-submit --jars, into $(DIST)/"
	@echo "make bench  - this source against Spark's rate source and a Python reader: docs/benchmarks.md"
	@echo "make soak   - the source at 1,000,000 rows/s for 10 minutes: heap and lag, in docs/reliability.md"
	@echo "make clean  - remove build outputs (keeps the bootstrapped tools)"

bootstrap: $(SBT_LAUNCHER) $(VENV_READY)

$(SBT_LAUNCHER): project/build.properties
	@mkdir -p $(TOOLS)
	mvn -q -B dependency:copy -Dartifact=org.scala-sbt:sbt-launch:$(SBT_VERSION) \
		-DoutputDirectory=$(TOOLS)
	@test -f $@

$(VENV_READY): python/pyproject.toml VERSION
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q "pyspark==$(SPARK_VERSION)" -e "./python[test,connect,bench]"
	@touch $@

# Builds the jar and puts it inside the Python package (package data), replacing older copies.
jar: bootstrap
	SPARK_JARS_DIR="$(SPARK_JARS_DIR)" $(SBT) source/package
	@$(MAKE) --no-print-directory copy-jar

.PHONY: copy-jar
copy-jar:
	@mkdir -p $(PACKAGE_JARS) && rm -f $(PACKAGE_JARS)/*.jar
	@cp $(SCALA_TARGET)/$(JAR_NAME) $(PACKAGE_JARS)/
	@echo "bundled $$(ls $(PACKAGE_JARS)/*.jar)"

# The wheel is built from the package with the freshly built jar inside it as package data.
wheel: jar
	@$(MAKE) --no-print-directory package-wheel

.PHONY: package-wheel
package-wheel:
	@mkdir -p $(DIST) && rm -f $(DIST)/spark_random_strings-*.whl
	$(PY) -m build --quiet --wheel --outdir $(DIST) python
	@rm -rf python/build
	@test -f $(WHEEL) && echo "built $(WHEEL)"

dist: wheel
	cp $(SCALA_TARGET)/$(JAR_NAME) $(DIST)/
	@ls -l $(DIST)

# The package is installed editable by bootstrap; with the jar in place it is complete.
install: jar

test: bootstrap
	SPARK_JARS_DIR="$(SPARK_JARS_DIR)" $(SBT) source/test source/package
	@$(MAKE) --no-print-directory copy-jar package-wheel
	$(MAKE) --no-print-directory test-python

test-scala: bootstrap
	SPARK_JARS_DIR="$(SPARK_JARS_DIR)" $(SBT) source/test

test-python:
	$(PY) -m mypy --config-file python/pyproject.toml python/src tests bench
	SPARK_RANDOM_STRINGS_WHEEL="$(abspath $(WHEEL))" $(PY) -m pytest tests -ra --durations=12

# The full benchmark (about 10 minutes): rewrites docs/benchmarks.md and docs/benchmarks.png, and
# fails if a target is missed. `make test` runs its smoke mode (tests/test_bench.py).
bench: install
	cd bench && ../$(PY) run_bench.py --out ../docs

# The soak run (about 11 minutes): rewrites its section of docs/reliability.md and docs/soak.png,
# and fails if the driver heap or the lag grows. `make test` runs its smoke mode.
soak: install
	cd bench && ../$(PY) soak.py --out ../docs

demo: install
	$(PY) -m spark_random_strings.demo --seconds 20

clean:
	rm -rf jvm/target project/target target $(PACKAGE_JARS)/*.jar dist build
