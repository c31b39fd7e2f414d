"""The VTES table screen's widgets, one module per area: the Methuselahs panel (:mod:`.players`);
the middle panes (:mod:`.panes`: the table, :mod:`.board`, and the hand, :mod:`.hand`, both
:mod:`.card_list` s, beside the card panel, :mod:`.card_panel`, and the log); the open action,
combat and referendum boxes (:mod:`.action`, :mod:`.combat`, :mod:`.referendum`); the line under
the table (:mod:`.say`) and the command line (:mod:`.command_line`)."""
