-- Grain: one row per consumption request copy (request_id, transaction_id; request_id: its notification ID),
-- by month of its signedDate, with what became of it: iaplens's own addition
-- to the reports (consumption_requests.csv; Documentation/Pipeline.md "Answering
-- consumption requests").
-- answer, as of T:
-- * answered / refused: sent, and Apple took it (202) or refused it;
-- * answered_late: sent, and Apple took it, but after the request's 12
--   hours (the send time is the accepted attempt's);
-- * skipped_no_facts / skipped_no_consent: the last run that saw it could
--   not send it;
-- * in_doubt: sent, and no answer recorded (a run stopped between sending
--   and recording, or the connection was lost): never sent again (an intent
--   still 'sending' at analysis time is one such run's);
-- * decided_before_answer: Apple refunded or declined within the 12 hours,
--   before any answer;
-- * missed: unanswered more than 12 hours after the request (Apple's later
--   decision, if any, is in decision);
-- * pending: still within its 12 hours;
-- * unverified: the stored copy was accepted without a verified signature
--   (--no-verify): never answered, whatever answer a verified request with
--   the same ID got.
-- decision: what Apple decided after the request (refunded / declined), ''
-- while open.
with

analysis_parameters as (
    select * from {{ source('analysis_parameters') }}
),

consumption_requests as (
    select * from {{ ref('consumption_requests') }}
),

answers as (
    select * from {{ source('consumption_answers') }}
),

joined as (
    select
        consumption_requests.*,
        answers.result,
        answers.body,
        answers.sent_at,
        answers.http_status,
        answers.apple_error_code,
        answers.apple_error_message
    from consumption_requests
    left join answers
        on consumption_requests.notification_id = answers.notification_id
        and consumption_requests.transaction_id = answers.transaction_id
        and consumption_requests.is_verified
),

final as (
    select
        joined.month,
        joined.notification_id as request_id,
        joined.transaction_id,
        joined.signed_at_ms,
        {{ utc_timestamp_of_ms(joined.signed_at_ms) }} as requested_at,
        coalesce(joined.account_id, '') as account_id,
        joined.rules,
        case
            when not joined.is_verified then {{ consumption_outcome('unverified') }}
            when joined.result = {{ consumption_result('sending') }}
                then {{ consumption_result('in_doubt') }}
            when joined.result = {{ consumption_result('answered') }}
                and joined.sent_at - joined.signed_at_ms
                > {{ rule('consumption_answer_window_ms') }}
                then {{ consumption_outcome('answered_late') }}
            when joined.result is not null then joined.result
            when joined.decision is not null
                and joined.decided_at_ms - joined.signed_at_ms
                <= {{ rule('consumption_answer_window_ms') }}
                then {{ consumption_outcome('decided_before_answer') }}
            when analysis_parameters.as_of_ms - joined.signed_at_ms
                > {{ rule('consumption_answer_window_ms') }}
                then {{ consumption_outcome('missed') }}
            else {{ consumption_outcome('pending') }}
        end as answer,
        case
            when joined.result in ({{ consumption_results('sent') }})
                and joined.body like '%"refundPreference":"DECLINE"%'
                then 'DECLINE'
            else ''
        end as refund_preference,
        case
            when joined.result in ({{ consumption_results('sent') }})
                then {{ utc_timestamp_of_ms(joined.sent_at) }}
            else ''
        end as answered_at,
        coalesce(joined.decision, '') as decision,
        case
            when joined.result in ({{ consumption_results('sent') }})
                then joined.http_status
        end as apple_status,
        joined.apple_error_code,
        coalesce(joined.apple_error_message, '') as apple_error_message,
        coalesce(joined.consumption_request_reason, '') as consumption_request_reason,
        joined.revocation_reason
    from joined
    cross join analysis_parameters
)

select * from final;
