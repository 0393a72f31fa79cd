"""Builders shared by the test modules: one Settings object that uses every field, question and
metadata type plus a vector field, and deterministic record payloads for it."""

import math
from typing import List, Optional

import argilla as rg

VECTOR_NAME = "embedding"
VECTOR_DIMS = 8
LABELS = ["positive", "negative", "neutral"]
TOPICS = ["sports", "politics", "science", "arts"]
RANK_VALUES = ["r1", "r2", "r3"]
SPAN_LABELS = ["PER", "ORG", "LOC"]
TERMS = ["a", "b", "c", "d"]
CUSTOM_TEMPLATE = "<div class='custom'><b>{{record.fields.custom.title}}</b> score={{record.fields.custom.score}}</div>"


def full_settings(
    guidelines: Optional[str] = "Label every record.", min_submitted: int = 1, with_image: bool = True
) -> rg.Settings:
    """Every field type, every question type, every metadata type, one vector field."""
    settings = rg.Settings(
        guidelines=guidelines,
        allow_extra_metadata=False,
        distribution=rg.TaskDistribution(min_submitted=min_submitted),
        fields=[
            rg.TextField(name="text", title="Text", use_markdown=True),
            rg.TextField(name="plain", title="Plain text", use_markdown=False, required=False),
            rg.ImageField(name="image", title="Image", required=False),
            rg.ChatField(name="chat", title="Conversation", required=False),
            rg.CustomField(name="custom", title="Custom", template=CUSTOM_TEMPLATE, required=False),
        ],
        questions=[
            rg.LabelQuestion(name="label", title="Sentiment?", labels=LABELS, description="Pick one"),
            rg.MultiLabelQuestion(
                name="topics", title="Topics", labels=TOPICS, labels_order="suggestion", required=False
            ),
            rg.RankingQuestion(name="ranking", title="Rank", values=RANK_VALUES, required=False),
            rg.RatingQuestion(name="rating", title="Quality", values=[1, 2, 3, 4, 5], required=True),
            rg.TextQuestion(name="comment", title="Comment", use_markdown=True, required=False),
            rg.SpanQuestion(
                name="entities",
                title="Entities",
                field="text",
                labels=SPAN_LABELS,
                allow_overlapping=True,
                required=False,
            ),
        ],
        metadata=[
            rg.TermsMetadataProperty(name="group", title="Group", options=TERMS),
            rg.IntegerMetadataProperty(name="position", title="Position", min=0, max=100_000),
            rg.FloatMetadataProperty(name="score", title="Score", min=0.0, max=1.0, visible_for_annotators=False),
        ],
        vectors=[rg.VectorField(name=VECTOR_NAME, title="Embedding", dimensions=VECTOR_DIMS)],
    )
    if not with_image:
        settings.fields.remove("image")
    return settings


def vector_for(i: int) -> List[float]:
    """A deterministic, well-spread unit-ish vector; exactly representable in float32 is not assumed."""
    return [round(math.sin((i + 1) * (k + 1) * 0.37), 6) for k in range(VECTOR_DIMS)]


def text_for(i: int) -> str:
    # every record: "Sample", unique token "tok<i>x", a shared token every 10th record ("zebra").
    extra = " zebra crossing" if i % 10 == 0 else ""
    return f"Alice met Bob. Sample number {i} tok{i}x{extra}"


def fields_for(i: int) -> dict:
    return {
        "text": text_for(i),
        "plain": f"plain {i}",
        "image": f"https://example.com/images/{i}.png",
        "chat": [
            {"role": "user", "content": f"Hello {i}"},
            {"role": "assistant", "content": f"Hi there, number {i}"},
        ],
        "custom": {"title": f"Item {i}", "score": i % 7},
    }


def metadata_for(i: int) -> dict:
    return {"group": TERMS[i % 4], "position": i, "score": round((i % 100) / 100, 2)}


def suggestions_for(i: int) -> List[rg.Suggestion]:
    return [
        rg.Suggestion("label", LABELS[i % 3], score=round((i % 10) / 10, 1), agent="model-a", type="model"),
        rg.Suggestion("topics", [TOPICS[i % 4], TOPICS[(i + 1) % 4]], score=[0.9, 0.4], agent="model-b"),
        rg.Suggestion("ranking", ["r2", "r1", "r3"], agent="ranker"),
        rg.Suggestion("rating", (i % 5) + 1, type="human"),
        rg.Suggestion("comment", f"auto comment {i}"),
        rg.Suggestion("entities", [{"label": "PER", "start": 0, "end": 5}, {"label": "PER", "start": 10, "end": 13}]),
    ]


def owner_status(i: int) -> Optional[str]:
    """Owner answers 4 of 5 records: submitted on even i, draft on odd i, nothing when i % 5 == 0."""
    if i % 5 == 0:
        return None
    return "submitted" if i % 2 == 0 else "draft"


def annotator_status(i: int) -> Optional[str]:
    """Annotator: submitted when i % 3 == 0, discarded when i % 3 == 1, nothing otherwise."""
    return {0: "submitted", 1: "discarded"}.get(i % 3)


def responses_for(i: int, owner_id, annotator_id, with_ranking: bool = True) -> List[rg.Response]:
    responses = []
    status = owner_status(i)
    if status is not None:
        responses += [
            rg.Response("label", LABELS[(i + 1) % 3], user_id=owner_id, status=status),
            rg.Response("rating", (i % 5) + 1, user_id=owner_id, status=status),
            rg.Response("topics", [TOPICS[i % 4]], user_id=owner_id, status=status),
            rg.Response("comment", f"owner says {i}", user_id=owner_id, status=status),
            rg.Response("entities", [{"label": "ORG", "start": 6, "end": 9}], user_id=owner_id, status=status),
        ]
        if with_ranking:
            # explicit ranks: a submitted ranking response needs every option ranked 1..N
            ranking = [{"value": "r1", "rank": 1}, {"value": "r2", "rank": 2}, {"value": "r3", "rank": 3}]
            responses.append(rg.Response("ranking", ranking, user_id=owner_id, status=status))
    status = annotator_status(i)
    if status == "submitted":
        responses += [
            rg.Response("label", LABELS[i % 3], user_id=annotator_id, status=status),
            rg.Response("rating", 3, user_id=annotator_id, status=status),
        ]
    elif status == "discarded":
        responses += [rg.Response("comment", "skip", user_id=annotator_id, status=status)]
    return responses


def make_record(
    i: int, owner_id, annotator_id, external_id: Optional[str] = None, with_ranking_response: bool = True
) -> rg.Record:
    return rg.Record(
        id=external_id or f"rec-{i}",
        fields=fields_for(i),
        metadata=metadata_for(i),
        vectors={VECTOR_NAME: vector_for(i)},
        suggestions=suggestions_for(i),
        responses=responses_for(i, owner_id, annotator_id, with_ranking=with_ranking_response),
    )


def assert_full_settings(settings: rg.Settings):
    fields = {f.name: f for f in settings.fields}
    assert list(fields) == ["text", "plain", "image", "chat", "custom"]  # creation order kept
    assert fields["text"].type == "text" and fields["text"].use_markdown is True and fields["text"].required is True
    assert fields["text"].title == "Text"
    assert fields["plain"].use_markdown is False and fields["plain"].required is False
    assert fields["image"].type == "image"
    assert fields["chat"].type == "chat" and fields["chat"].use_markdown is True
    assert fields["custom"].type == "custom"
    assert fields["custom"].template == CUSTOM_TEMPLATE
    assert fields["custom"].advanced_mode is False

    questions = {q.name: q for q in settings.questions}
    assert list(questions) == ["label", "topics", "ranking", "rating", "comment", "entities"]
    label = questions["label"]
    assert label.type == "label_selection" and label.labels == LABELS and label.required is True
    assert label.title == "Sentiment?" and label.description == "Pick one"
    assert label.visible_labels == len(LABELS)
    topics = questions["topics"]
    assert topics.type == "multi_label_selection" and topics.labels == TOPICS and topics.required is False
    assert topics.serialize()["settings"]["options_order"] == "suggestion"
    assert questions["ranking"].type == "ranking" and questions["ranking"].values == RANK_VALUES
    assert questions["rating"].type == "rating" and questions["rating"].values == [1, 2, 3, 4, 5]
    assert questions["comment"].type == "text" and questions["comment"].use_markdown is True
    entities = questions["entities"]
    assert entities.type == "span" and entities.field == "text" and entities.labels == SPAN_LABELS
    assert entities.allow_overlapping is True

    metadata = {m.name: m for m in settings.metadata}
    assert list(metadata) == ["group", "position", "score"]
    assert isinstance(metadata["group"], rg.TermsMetadataProperty) and metadata["group"].options == TERMS
    assert isinstance(metadata["position"], rg.IntegerMetadataProperty) and (metadata["position"].min, metadata["position"].max) == (0, 100_000)
    assert isinstance(metadata["score"], rg.FloatMetadataProperty) and (metadata["score"].min, metadata["score"].max) == (0.0, 1.0)
    assert metadata["group"].visible_for_annotators is True
    assert metadata["score"].visible_for_annotators is False

    vectors = list(settings.vectors)
    assert [(v.name, v.title, v.dimensions) for v in vectors] == [(VECTOR_NAME, "Embedding", VECTOR_DIMS)]
