# Software PTM: exit 77 from test_ptm_oracle means trc_pkt_lister is absent.
if(TEST test_ptm_oracle)
  set_tests_properties(test_ptm_oracle PROPERTIES SKIP_RETURN_CODE 77)
endif()
