/** One record of the processing log, in the standard's fields (attributes as columns of their own). */
export interface LogbookTable {
  record_id: string;
  trace_id: string;
  span_id: string;
  parent_span_id: string | null;
  name: string;
  status: string;
  start_time: Date;
  end_time: Date;
  processing_activity_id: string;
  /** HMAC-SHA256 pseudonym of the BSN (`dpl.core.data_subject_id`). */
  data_subject_id: string;
  data_subject_id_type: string;
  foreign_trace_id: string | null;
  foreign_span_id: string | null;
  exception_type: string | null;
  exception_message: string | null;
  door: string;
  /** The producing service: the subject's last token (`register.processing[-batch].<service>`). */
  service: string;
}
