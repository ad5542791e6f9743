#!/usr/bin/env bash
# test.sh: `make test-citus`. Starts the Citus cluster (cluster.sh up) and
# runs the system tests that play whole games (page, API, reply by email,
# bots, take-back, catch-up, deadlines and reminders, audit, pbem verify
# --all, pbem rebuild) against it: PBEM_TEST_DATABASE_URL names the
# coordinator and PBEM_TEST_CITUS the workers, so pgtest gives each test
# a database on all three nodes, migrated and then distributed by
# migrations/citus/distribute.sql.
# Skipped (exit 0, with a message) when the citus extension is not
# installed. Not part of make test or .ci/run: CI machines have no Citus.
# CITUS_RUN narrows the tests to one package and -run pattern
# ("./api ^TestX$").
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export PATH=/usr/local/go/bin:$PATH
"$here/cluster.sh" up
rc=$?
if [ $rc = 2 ]; then echo "test-citus: skipped (no citus extension)"; exit 0; fi
[ $rc = 0 ] || exit $rc
PBEM_TEST_DATABASE_URL=$("$here/cluster.sh" url)
PBEM_TEST_CITUS=$("$here/cluster.sh" workers | tr '\n' ' ')
export PBEM_TEST_DATABASE_URL PBEM_TEST_CITUS
tests=(
  './cmd/pbem ^(TestServeEndToEnd|TestRebuildAndVerifyCommands|TestVerifyAuditFile|TestYourTurnEmailsAreTrue|TestArchivedGamesReadAsBefore)$'
  './events/postgres ^(TestArchivedStreamsReadAsBefore|TestTamperedArchiveFailsVerify)$'
  './api/inbound ^(TestWholeGamesByEmailReplies|TestSameMessageTwicePlaysOnce|TestAwayAndBackByReply)$'
  './events/play/bots ^(TestBotWorkerPlaysWholeGames|TestWorkerPlaysClaimedSeatsAtOnce)$'
  './events/play ^(TestServicePlaysAGameToTheEnd|TestTakeback.*|TestSeatCatchUpStartsAfterTheLastMoveOrVisit)$'
  './projections/postgres ^(TestRebuildEqualsLive|TestVerifyCatchesTampering)$'
  './notify/postgres ^(TestDeadlineReminderTimeoutAndNextPlayerEmailed|TestTwoSchedulersTimeOutEachGameOnce|TestReminderSaysWhatHappensAndListsTheMoves|TestZoneOfFallsBackToThePersonsZone|TestTableTalkEmailSpeaksTheReadersLanguage)$'
  './api ^(TestBotSeatsThroughTheAPI|TestAuditReadsAsAStory|TestPageGenericGameAndHistoryAndAudit|TestDevMailboxReplyPlaysTheMove|TestBrowserWholeGameByTapping)$'
)
[ -n "${CITUS_RUN:-}" ] && tests=("$CITUS_RUN")
cd "$here/../.."
rc=0
for t in "${tests[@]}"; do
  pkg=${t%% *} run=${t#* }
  echo "== go test -run '$run' $pkg (Citus: coordinator $PBEM_TEST_DATABASE_URL)"
  go test -count=1 -timeout 20m -run "$run" "$pkg" || rc=1
done
[ $rc = 0 ] && echo "test-citus: PASS" || echo "test-citus: FAIL"
exit $rc
