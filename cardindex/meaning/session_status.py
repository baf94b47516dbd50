"""Status lines that English status words miss: an item and its state, in English and in CJK text.

A status board lists items with the state each is in: "Session 3: Complete (Apr 22)",
"Importer — shipped", "install.ps1: 미테스트", "数据迁移\uff1a已完成" (with a full-width colon). What marks such a line
is not the state word alone (a rule may say "never call a task complete before its
tests run") but its place: the state is the predicate of the item, so it ends the item's
clause (the end of the line, a comma, a dash, a parenthesis follows it) right after the
item's label (a colon or dash before it) or at the end of a heading or bullet.

Korean, Chinese and Japanese put the predicate last and attach particles to it
("완료라고", "完成的"), so a state word followed by a particle or more words is a
mention, not a report; only one that closes its clause counts. The state words are the
small closed class of workflow states (done, merged, deployed, passed; in progress,
pending, not yet done, planned, blocked) and, in Korean, the negating prefix 미- ("not
yet") on a verbal noun (미완료, 미검증, 미실시). Pure functions of a line.
"""

from __future__ import annotations

import re

from cardindex.lazy import lazy_pattern
from cardindex.meaning.language import is_english

# English: `ITEM: STATE` or `ITEM — STATE`, a short item label (six words at most), the state closing the clause.
_EN_DONE = r"done|complete|completed|shipped|merged|deployed|released|landed|finished|fixed|resolved|passed|passing|verified|live"
_EN_OPEN = r"pending|in progress|wip|todo|to do|not started|not yet started|not done|blocked|remaining|deferred|on hold|open|next"
_EN_ITEM_STATE = lazy_pattern(
    rf"^\s*(?:[-*+]|\d{{1,3}}[.)]|#{{1,6}}|\|)?\s*(?:\*\*|__)?[^\s:\u2014\u2013|]+(?:[ \t]+[^\s:\u2014\u2013|]+){{0,5}}(?:\*\*|__)?\s*(?::|\u2014|\u2013| - |\|)\s*(?:\*\*|__)?"
    rf"(?:[✅✔☑⏳🔄🚧]\s*)?(?:(?P<done>{_EN_DONE})|(?P<open>{_EN_OPEN}))(?:\*\*|__)?\s*(?=$|[(,;.|\u2014\u2013]|\s-\s)",
    re.IGNORECASE,
)
# What a line that defines a state, or asks for one, looks like: "Done: a ticket whose tests pass".
_EN_DEFINITION = lazy_pattern(rf"^\s*(?:[-*+]\s*)?(?:\*\*)?(?:{_EN_DONE}|{_EN_OPEN})(?:\*\*)?\s*[:=\u2014-]", re.IGNORECASE)

_EN_LIST_OF_STATES = lazy_pattern(rf"\s*(?:,|/|\bor\b|\band\b)\s*(?:{_EN_DONE}|{_EN_OPEN})\b", re.IGNORECASE)

# CJK state words. Korean 미- + a verbal noun is "not yet <verb>ed".
_CJK_DONE = (
    r"완료(?:됨|했음|함)?|완성(?:됨)?|머지됨|병합됨|배포됨|배포 완료|통과(?:함)?|해결됨|적용됨|"
    r"已完成|完成|已合并|已上线|已部署|已修复|已解决|通过|"
    r"完了|済み|対応済み|マージ済み"
)
_CJK_OPEN = (
    r"미(?:완료|완성|검증|테스트|실시|생성|구현|착수|적용|반영|확인|배포|머지|해결|발행|처리|결정|작성|설정|등록|커밋|푸시)|진행 ?중|대기(?: ?중)?|예정|보류|막힌 상태|"
    r"进行中|待办|待定|未完成|未开始|未合并|未部署|待处理|"
    r"未着手|進行中|対応中|未完了"
)
_CJK_STATE = lazy_pattern(
    rf"(?:^|[\s:\uff1a\u2014\u2013|(\uff08,\uff0c·*-])(?:(?P<done>{_CJK_DONE})|(?P<open>{_CJK_OPEN}))"
    r"(?=$|[\s]*[(\uff08,\uff0c.。;\uff1b:\uff1a|)\u2014\u2013·/*]|\s+[-\d(\uff08])"
)
_CJK_DEFINITION = lazy_pattern(rf"^\s*(?:[-*+]\s*)?(?:\*\*)?(?:{_CJK_DONE}|{_CJK_OPEN})(?:\*\*)?\s*[:\uff1a=\u2014-]")
_LISTED = lazy_pattern(r"^\s*(?:[-*+]|\d{1,3}[.)]|#{1,6}|\|)\s")
_COLON = lazy_pattern(r"[:\uff1a\u2014\u2013]")

# A heading or label that opens a list of what is still to do, or the state of things now.
_CJK_OPEN_HEAD = lazy_pattern(
    r"^\s*(?:#{1,6}\s*|[-*+]\s*)?(?:\*\*)?[^\w]{0,5}\s*(?:핵심\s*)?(?:후속\s*과제|후순위\s*과제|다음\s*단계|남은\s*(?:작업|과제|일)|"
    # "다음 세션 작업" / "下次会话" / "次のセッション": what the next sitting is to do, as English "Next session:".
    r"다음\s*세션\s*(?:작업|할\s*일|과제|[:\uff1a])|下次会话|次の?セッション|"
    r"현재\s*상태|진행\s*상황|할\s*일|下一步|待办事项|当前状态|当前进度|剩余工作|次のステップ|残タスク|現在の状態|"
    r"(?:상태|状态|状態)(?:\*\*)?\s*[:\uff1a])"  # a "status:" label
)


def item_state(line: str) -> tuple[bool, bool]:
    """(done, open): the state an English line reports for an item by the item-state shape alone."""
    if not (":" in line or "\u2014" in line or "\u2013" in line or " - " in line or "|" in line):
        return False, False  # no label before a state
    if _EN_DEFINITION.match(line):
        return False, False
    m = _EN_ITEM_STATE.match(line)
    if m is None or _EN_LIST_OF_STATES.match(line, m.end()):
        return False, False  # "Ticket states: done, pending or blocked" names the states
    return m.group("done") is not None, m.group("open") is not None


def cjk_state(line: str) -> tuple[bool, bool, bool]:
    """(done, open, heading) of a CJK line: the states it gives items, or whether it heads what is left to do."""
    head = _CJK_OPEN_HEAD.match(line) is not None
    if not head and (not (_LISTED.match(line) or _COLON.search(line)) or _CJK_DEFINITION.match(line)):
        return False, False, False  # "완료: 리뷰가 끝나 머지된 상태" says what a state means
    done = opened = False
    for m in _CJK_STATE.finditer(line):
        if m.group()[:1] in "(\uff08" and line[m.end():m.end() + 1] in (")", "\uff09") and line[m.end() + 1:m.end() + 2].isalnum():
            continue  # "(예정)SOLAPI_KEY": a tag on one entry of an inventory, not the state of a piece of work
        done |= m.group("done") is not None
        opened |= m.group("open") is not None
    return done, opened, head  # "상태: 초안 완료, 미발행" heads and reports at once


# "현재 상태: 실발송 이력 없음", "当前状态" with a full-width colon: a label that says the rest of the line is how things stand now.
_CJK_NOW_LABEL = lazy_pattern(
    r"^\s*(?:#{1,6}\s*|[-*+]\s*)?(?:\*\*)?[^\w]{0,5}\s*(?:현재\s*(?:상태|상황|진행\s*상황)|진행\s*상황|当前(?:状态|进度)|现状|現在の(?:状態|状況)|進捗)"
    r"(?:\*\*)?\s*[:\uff1a](?:\*\*)?\s*\S"
)
# A piece of work marked done on a day: "완료(2026-05-29, main 머지)", "已完成" and a full-width parenthesis (as English "Done May 12").
# Only as the label that opens a line and heads what was done: "설치 완료(2026-06-11)" in a sentence tells history.
_CJK_DONE_ON = lazy_pattern(r"^\s*(?:[-*+]\s*)?(?:\*\*)?\s*(?:완료|已完成|完了)\s*[(\uff08]\s*(?:19|20)\d\d[-./]\d{1,2}[-./]\d{1,2}")


def cjk_snapshot(line: str) -> str | None:
    """What makes a CJK line a snapshot of work now: a "current state" label with its content, a done mark with its day."""
    m = _CJK_NOW_LABEL.match(line) or _CJK_DONE_ON.match(line)
    return m.group().strip(" -*#") if m is not None else None


# The next sitting named, as English "Next session: …", "next step is …": 다음 세션, 下次会话, 次のセッション;
# 다음 단계 with a topic or copula mark ("다음 단계는 …"), 下一步是. In a feedback card the next session is where a
# rule applies ("so the user can paste it in the next session"), as English "this session" in a lesson.
_CJK_NEXT = lazy_pattern(
    r"다음\s*세션|下次会话|下一次会话|次の?セッション|"
    # "next time" of the writer: "다음엔 로그부터 볼 것", "下次从第 120 行继续", "次回は設定画面から"
    # ("等下次 `ops check` 重跑", "wait for the next check to rerun", is the system's next run: 下次 needs the writer's act)
    r"다음(?:엔|에는|\s*번에)|下次(?=\s*(?:从|继续|再|先|要|把|接着|新?\s*session|新会话))|次回(?=は|から|に)|"
    r"다음\s*단계\s*(?:\*\*)?\s*(?:은|는|=|[:\uff1a])|下一步(?:是|[:\uff1a])|次のステップ(?:は|[:\uff1a])"
)


# A rule's words, as English "always", "must", "never", "every time": "다음 세션에서는 항상 인계 파일을 먼저 읽는다".
_CJK_RULE = lazy_pattern(r"항상|반드시|절대|매번|언제나|总是|必须|每次|永远|始终|不要|必ず|常に|毎回|決して")


def cjk_next(line: str) -> str | None:
    """The words that name the next sitting's work in a CJK line ("다음 세션", "다음 단계는"), or None; not in a rule."""
    m = _CJK_NEXT.search(line)
    return m.group().strip() if m is not None and not _CJK_RULE.search(line) else None


# "Today" and "tomorrow" of the writer's day in Korean, Chinese, Japanese, German and Czech: "오늘 … 붙였다",
# "明天继续", "Heute die Hälfte übersetzt", "Zítra doladím patičku". German "Morgen" inside a sentence is the noun
# "morning"; "heutige", "dnešní" (today's) are adjectives and not matched. English "today" is `session_words`'.
_DEICTIC_DAY = lazy_pattern(
    r"오늘|내일|어제|今天|明天|昨天|今日|明日|"
    # and "not yet" of the writer's own work: "원인은 아직 모르겠음", "还没写", "まだ終わっていない"
    r"아직\s*(?:모르|안\s|못\s|미)|还没|まだ\S{0,8}(?:ていない|てない|ません)|"
    # stuck, waiting for a reply, in the middle of doing: "卡在证书问题上", "等运维回复", "화면 작업 중."
    r"卡在|卡住了|等\S{0,8}(?:回复|确认|反馈|审批|批准|审核)|还在等|[了到]一半|"
    # in the middle of an act (Japanese, Chinese: "調査中", "处理中"), and Japanese "38 of 40"
    r"(?:調査|作業|対応|確認|検証|実装|调查|处理)中(?![のな的])|\d+\s*件中\s*\d+|"
    # German and Czech: "Ich bin gerade bei Kapitel 3", "fehlt noch", "Mám hotové dvě kapitoly", "rozepsaná"
    r"\b(?:[Ii]ch bin gerade|[Bb]in gerade dabei|[Ii]ch arbeite gerade|fehlt noch|fehlen noch|[Mm]ám hotov\w*|rozepsan\w*|rozpracovan\w*)\b|(?:^|(?<=[\s,;:]))(?:[Čč]ekám|[Čč]ekáme|[Ii]ch warte|[Ww]arte noch|[Jj]'attends|[Ee]stoy esperando)\b|막혀\s*있|막혔|(?:작업|진행|하는|개발|수정|테스트|검토|조사|확인|디버깅|리팩터링)\s*중(?:이다|임|입니다|이고|이며)?(?=[.。,\s]|$)|아직[^.。]{0,8}?(?:못|안)\s*\S*(?:다|음|함)|正在|"
    # Spanish and French: "Hoy terminé el login; mañana sigo", "Aujourd'hui j'ai branché …, demain je teste"
    r"(?<!la )(?<!cada )(?<!las )(?<!por )\b(?:[Hh]oy|[Mm]añana|[Aa]yer|[Aa]ujourd'hui|[Dd]emain|[Hh]ier)\b|"
    # "so far" and "for now", as English "so far" is unfinished work: zatím, bisher, por ahora, pour l'instant
    r"\b(?:[Zz]atím|[Bb]isher|[Bb]islang|[Pp]or ahora|[Hh]asta ahora|[Pp]our l'instant|[Jj]usqu'ici|[Pp]our le moment)\b|"
    r"(?:^|(?<=[.!?:]\s))\W*(?:Heute|Morgen|Gestern|Dnes|Zítra|Včera)\b|\b(?:heute|morgen|gestern|dnes|zítra|včera)\b"
)
# What makes such a word part of a rule or a name: a rule's words ("항상", "必须", "immer", "vždy"), "today's date".
_FOREIGN_RULE = lazy_pattern(
    r"항상|반드시|절대|매번|언제나|总是|必须|每次|永远|始终|不要|不能|必ず|常に|毎回|決して"
    r"|\b(?:immer|nie|niemals|jede[nrsm]?|stets|muss|müssen|darf|dürfen|grundsätzlich|vždy|nikdy|musí|musíme|každ\w*|nesmí|nesmíme)\b"
    r"|\b(?:siempre|nunca|cada|debe|deben|toujours|jamais|chaque|doit|doivent)\b|il faut"
    # a condition: "如果…", "…的时候", "…时" and a comma, "경우", "とき", "場合"
    r"|如果|的时候|时[\uff0c,]|경우|とき|場合"
    r"|(?:오늘|내일)\s*(?:날짜|자|일자)|(?:今天|明天|今日)的?(?:日期|日付)",
    re.IGNORECASE,
)


# A tally of work told with another language's "of": "3 von 8 Tabellen sind durch", "12 z 30 řetězců", "3 sur 8".
_FOREIGN_TALLY = lazy_pattern(r"\b\d+\s+(?:von|z|ze|sur|de|di|van|av|af)\s+\d+\b")


def deictic_day(line: str) -> str | None:
    """"Today" or "tomorrow" of the writer's sitting in a line not in English, or None when the line states a rule.

    A count of work told with another language's "of" ("3 von 8 Tabellen") is read the same way, on a line
    that is not English.
    """
    m = _DEICTIC_DAY.search(line)
    if m is None and _FOREIGN_TALLY.search(line) is not None and is_english(line) is not True:
        m = _FOREIGN_TALLY.search(line)
    if m is None or _FOREIGN_RULE.search(line):
        return None
    return m.group().strip(" .!?:")


# Status labels of German, Czech, French and Spanish notes, as "현재 상태:" in Korean: "Zwischenstand: …", "Zbývá: …".
# A label that says how things stand now is a snapshot alone; one of done or open items needs a second label.
_LATIN_NOW = (r"zwischenstand|aktueller stand|stand heute|stand der dinge|noch offen|in arbeit|aktuální stav|rozpracováno|"
              r"dnes hotovo|rozdělaná práce|zbývá(?:jí)?(?: udělat)?|reste à faire|en cours|état actuel|pendiente|en curso|estado actual")
_LATIN_DONE = r"erledigt|fertig|hotovo|fait|terminé|hecho|terminado"
_LATIN_LABEL = lazy_pattern(
    rf"^\s*(?:[-*+]\s*)?(?:\*\*|__)?\s*(?:(?P<now>{_LATIN_NOW})|(?P<done>{_LATIN_DONE}))\s*(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*"
    r"(?!(?:ein|eine|einer|wenn|sobald|když|cuando|quand)\b)\S",
    re.IGNORECASE,
)


def latin_label(line: str) -> str | None:
    """"now" or "done" when a line not in English opens with a status label ("Zwischenstand: …", "Hotovo: …"), else None."""
    m = _LATIN_LABEL.match(line)
    if m is None:
        return None
    return "now" if m.group("now") is not None else "done"
