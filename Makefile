# spark-random-strings: every set-up step lives here, so a fresh machine needs only
# `make demo` or `make test`. Needs Java 17, Maven, Python 3.11 and pip; everything else
# (sbt, pyspark, the test tools) is installed into git-ignored folders of this tree.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
# One source of truth for each version: sbt's in project/build.properties, Spark's in build.sbt.
SBT_VERSION := $(shell sed -n 's/^sbt\.version=//p' project/build.properties)
# The Spark release build.sbt pins for a Spark line: $(call spark_version,3.5) -> 3.5.9
spark_version = $(shell sed -n 's/.*SparkLine."\($(subst .,\.,$(1))\.[0-9]*\)".*/\1/p' build.sbt | head -1)
# The default line: `make test` runs every suite on it, and .venv holds its pyspark.
DEFAULT_LINE := 4.3
SPARK_VERSION := $(call spark_version,$(DEFAULT_LINE))
# The lines `make test-compat` runs the end-to-end suite on, each in a virtual environment of its own.
COMPAT_LINES ?= 3.5 4.0 4.1 4.2 4.3
# The project's version, shared by the jar (build.sbt reads it) and the wheel (python/VERSION links to it).
VERSION := $(shell cat VERSION)

TOOLS := .tools
VENV := .venv
PY := $(VENV)/bin/python
SBT_LAUNCHER := $(TOOLS)/sbt-launch-$(SBT_VERSION).jar
VENV_READY := $(VENV)/.ready-$(SPARK_VERSION)
PACKAGE_JARS := python/src/spark_random_strings/jars
# Every line's jar, as sbt builds it: jvm/lines/spark-<line>_<scala>/target/scala-<scala>/
LINE_JARS = jvm/lines/*/target/scala-*/spark-random-strings-spark*-$(VERSION).jar
DIST := dist
WHEEL := $(DIST)/spark_random_strings-$(VERSION)-py3-none-any.whl

# sbt resolves from the local caches and Maven Central only (project/repositories).
SBT := java -Xms512m -Xmx3g -Xss4m -Dfile.encoding=UTF-8 \
	-Dsbt.repository.config=project/repositories -Dsbt.override.build.repos=true \
	-Dsbt.server.autostart=false -Dsbt.supershell=false -Dsbt.color=false -Dsbt.ci=true \
	-jar $(SBT_LAUNCHER)
# The Spark runtime jars that the build compiles and tests against: those of the pinned pyspark.
SPARK_JARS_DIR = $$($(PY) -c 'import os, pyspark; print(os.path.join(os.path.dirname(pyspark.__file__), "jars"))')

.PHONY: help bootstrap jar wheel dist install test test-scala test-python test-compat bench soak demo clean

help:
	@echo "make demo   - set up, build the jar, install the package and stream random strings"
	@echo "make test   - set up, build, run the scalatest suites and the pytest suite on Spark $(DEFAULT_LINE)"
	@echo "make test-compat - the scalatest and end-to-end suites on each Spark line in COMPAT_LINES"
	@echo "                   (default: $(COMPAT_LINES)), and each line's checkpoint restarted on $(DEFAULT_LINE)"
	@echo "make test-java21 - the default line's suites on a JDK 21, where the machine has one"
	@echo "make jar    - build one jar per Spark line and copy them into the Python package"
	@echo "make wheel  - build the jars and a wheel that bundles them, into $(DIST)/"
	@echo "make dist   - the wheel, and the plain jars for spark-submit --jars, into $(DIST)/"
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

# Builds every line's jar and puts them inside the Python package (package data), replacing
# older copies.
jar: bootstrap
	SPARK_JARS_DIR="$(SPARK_JARS_DIR)" $(SBT) package
	@$(MAKE) --no-print-directory copy-jar

.PHONY: copy-jar
copy-jar:
	@mkdir -p $(PACKAGE_JARS) && rm -f $(PACKAGE_JARS)/*.jar
	@cp $(LINE_JARS) $(PACKAGE_JARS)/
	@echo "bundled:" && ls -1 $(PACKAGE_JARS)/*.jar

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
	rm -f $(DIST)/spark-random-strings-*.jar && cp $(LINE_JARS) $(DIST)/
	@ls -l $(DIST)

# The package is installed editable by bootstrap; with the jar in place it is complete.
install: jar

test: bootstrap
	SPARK_JARS_DIR="$(SPARK_JARS_DIR)" $(SBT) $(call sbt_projects,$(DEFAULT_LINE),test) package
	@$(MAKE) --no-print-directory copy-jar package-wheel
	$(MAKE) --no-print-directory test-python

test-scala: bootstrap
	SPARK_JARS_DIR="$(SPARK_JARS_DIR)" $(SBT) $(call sbt_projects,$(DEFAULT_LINE),test)

test-python:
	$(PY) -m mypy --config-file python/pyproject.toml python/src tests bench
	SPARK_RANDOM_STRINGS_WHEEL="$(abspath $(WHEEL))" $(PY) -m pytest tests -ra --durations=12

# The sbt projects of a Spark line (3.5 has two: Scala 2.12 and 2.13), with a task:
# $(call sbt_projects,3.5,test) -> spark35_212/test spark35_213/test
sbt_projects = $(foreach p,$(shell sed -n 's/^lazy val \(spark$(subst .,,$(1))[_0-9]*\) = sparkLineProject.*/\1/p' build.sbt),$(p)/$(2))

# Per line: its scalatest suites, the end-to-end pytest suite in a virtual environment with that
# line's pyspark (.venvs/spark-<line>; the default line's is .venv), and a checkpoint that line
# writes and is killed on mid-stream, finished on the default line.
test-compat: wheel
	@for line in $(COMPAT_LINES); do \
	  $(MAKE) --no-print-directory compat-line LINE=$$line || exit 1; \
	done

LINE_SPARK = $(call spark_version,$(LINE))
LINE_VENV = .venvs/spark-$(LINE)

.PHONY: compat-line
ifeq ($(LINE),$(DEFAULT_LINE))
compat-line:
	@echo "=== Spark $(LINE) ($(LINE_SPARK)), the default line ==="
	SPARK_JARS_DIR="$(SPARK_JARS_DIR)" $(SBT) $(call sbt_projects,$(LINE),test)
	$(MAKE) --no-print-directory test-python
else
compat-line: $(LINE_VENV)/.ready-$(LINE_SPARK)
	@echo "=== Spark $(LINE) ($(LINE_SPARK)) ==="
	@test -n "$(LINE_SPARK)" || { echo "build.sbt pins no Spark line $(LINE)"; exit 1; }
	SPARK_JARS_DIR="$(SPARK_JARS_DIR)" $(SBT) $(call sbt_projects,$(LINE),test)
	SPARK_RANDOM_STRINGS_WHEEL="$(abspath $(WHEEL))" $(LINE_VENV)/bin/python -m pytest tests -ra --durations=12
	SPARK_RANDOM_STRINGS_UPGRADE_FROM="$(abspath $(LINE_VENV))/bin/python" \
		$(PY) -m pytest tests/test_checkpoint_upgrade.py -ra

# A line's environment: its pinned pyspark and this package (editable), with the test tools.
$(LINE_VENV)/.ready-$(LINE_SPARK): python/pyproject.toml VERSION
	$(PYTHON) -m venv $(LINE_VENV)
	$(LINE_VENV)/bin/python -m pip install -q --upgrade pip
	$(LINE_VENV)/bin/python -m pip install -q "pyspark==$(LINE_SPARK)" -e "./python[test,connect]"
	@touch $@
endif

# A JDK 21, if the machine has one (or JAVA21_HOME names it): the default line's scalatest and
# pytest suites run on it too. Spark 3.5 to 4.3 all run on Java 17 and 21.
JAVA21_HOME ?= $(firstword $(wildcard /usr/lib/jvm/*-21-* /usr/lib/jvm/jdk-21*))
.PHONY: test-java21
ifeq ($(JAVA21_HOME),)
test-java21:
	@echo "no JDK 21 here (none under /usr/lib/jvm, JAVA21_HOME unset): the Java 21 run is skipped"
else
test-java21: wheel
	JAVA_HOME="$(JAVA21_HOME)" PATH="$(JAVA21_HOME)/bin:$$PATH" $(MAKE) --no-print-directory test-scala test-python
endif

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
	rm -rf jvm/target jvm/lines project/target target $(PACKAGE_JARS)/*.jar dist build
