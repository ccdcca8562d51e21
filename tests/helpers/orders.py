"""The issue's order stream, widened to every type: one declared schema and its ``fields.``
options, shared by the tests of the cell makers and of the typed options."""

from __future__ import annotations

ORDERS_DDL = (
    "order_id BIGINT NOT NULL, user_id INT NOT NULL, amount DECIMAL(10,2), status STRING NOT NULL, "
    "code STRING, tags ARRAY<STRING>, shipping STRUCT<city: STRING, zip: STRING>, event_time TIMESTAMP "
    "NOT NULL, score DOUBLE, day DATE, flag BOOLEAN NOT NULL, raw BINARY"
)
ORDERS_FIELDS = {
    "fields.order_id.kind": "offset",
    "fields.user_id.min": "1",
    "fields.user_id.max": "100000",
    "fields.user_id.distribution": "zipf",
    "fields.user_id.zipfExponent": "1.2",
    "fields.amount.min": "0.50",
    "fields.amount.max": "999.99",
    "fields.amount.nullRate": "0.05",
    "fields.status.kind": "values",
    "fields.status.values": '["new", "paid", "shipped", "cancelled"]',
    "fields.status.weights": "[2, 6, 1, 1]",
    "fields.code.pattern": "ORD-[0-9]{4}-[A-Z]{3}",
    "fields.tags.maxSize": "3",
    "fields.tags.element.kind": "values",
    "fields.tags.element.values": '["gift", "express", "fragile"]',
    "fields.shipping.city.kind": "values",
    "fields.shipping.city.values": '["Lyon", "Porto", "Turin"]',
    "fields.shipping.zip.pattern": "[0-9]{5}",
    "fields.event_time.kind": "eventTime",
    "fields.score.distribution": "normal",
    "fields.score.min": "0",
    "fields.score.max": "10",
    "fields.score.mean": "5",
    "fields.score.stddev": "2",
    "fields.day.min": "2024-01-01",
    "fields.day.max": "2024-01-31",
    "fields.raw.maxLength": "3",
}
